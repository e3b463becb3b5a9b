import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AccessGuard } from './access.guard.js';
import { AccessService } from './access.service.js';

/** Global, so every controller can put `@UseGuards(AccessGuard)` on its routes. */
@Global()
@Module({
  imports: [AuthModule],
  providers: [AccessService, AccessGuard],
  exports: [AccessService, AccessGuard, AuthModule],
})
export class AccessModule {}
