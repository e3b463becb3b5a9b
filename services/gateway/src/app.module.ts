import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceMetrics } from '@memtrail/metrics';
import { APP_FILTER } from '@nestjs/core';
import { AccessModule } from './access/access.module.js';
import { AdminModule } from './admin/admin.module.js';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { BadgesModule } from './badges/badges.module.js';
import { BudgetsModule } from './budgets/budgets.module.js';
import { CiSummaryModule } from './ci-summary/ci-summary.module.js';
import { GatewayConfig } from './config.js';
import { HealthModule } from './health/health.module.js';
import { EnvelopeExceptionFilter } from './http/envelope-exception.filter.js';
import { InfraModule } from './infra/infra.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { OrganizationsModule } from './organizations/organizations.module.js';
import { ProjectsModule } from './projects/projects.module.js';
import { PublicAccessModule } from './public-access/public-access.module.js';
import { PublicProjectsModule } from './public-access/public-projects.module.js';
import { ReadsModule } from './reads/reads.module.js';
import { SsoModule } from './sso/sso.module.js';
import { SsoPolicyModule } from './sso/sso-policy.service.js';
import { UploadModule } from './upload/upload.module.js';

@Module({})
export class AppModule {
  static register(config: GatewayConfig, metrics: ServiceMetrics): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.register(config, metrics),
        HealthModule,
        AuditModule,
        SsoPolicyModule,
        ApiKeysModule,
        PublicProjectsModule,
        AuthModule,
        AccessModule,
        OAuthModule,
        OrganizationsModule,
        SsoModule,
        ProjectsModule,
        UploadModule,
        CiSummaryModule,
        BudgetsModule,
        ReadsModule,
        PublicAccessModule,
        BadgesModule,
        AdminModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: EnvelopeExceptionFilter }],
    };
  }
}
