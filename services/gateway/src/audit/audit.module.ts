import { Global, Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service.js';
import { AuditRetentionService } from './audit-retention.service.js';
import { AuditService } from './audit.service.js';
import { AuditController } from './audit.controller.js';
import { SignInAudit } from './sign-in-audit.service.js';

/** Global: any module records events with AuditService. */
@Global()
@Module({
  controllers: [AuditController],
  providers: [AuditService, AuditLogService, AuditRetentionService, SignInAudit],
  exports: [AuditService, SignInAudit],
})
export class AuditModule {}
