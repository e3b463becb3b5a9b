import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthFlows, OAuthService } from './oauth.service.js';

@Module({
  imports: [AuthModule],
  controllers: [OAuthController],
  providers: [OAuthService, OAuthFlows],
  exports: [OAuthFlows, AuthModule],
})
export class OAuthModule {}
