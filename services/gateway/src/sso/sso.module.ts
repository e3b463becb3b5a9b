import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module.js';
import { SsoConnectionController, SsoSignInController } from './sso.controller.js';
import { SsoConnectionsService } from './sso-connections.service.js';
import { SsoSignInService } from './sso-sign-in.service.js';

/** Organisations' OIDC providers: their configuration and sign-in through them. */
@Module({
  imports: [OAuthModule],
  controllers: [SsoConnectionController, SsoSignInController],
  providers: [SsoConnectionsService, SsoSignInService],
})
export class SsoModule {}
