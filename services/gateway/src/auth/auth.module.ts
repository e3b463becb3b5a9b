import { Module } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { GatewayConfig } from '../config.js';
import { MailModule } from '../mail/mail.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { JWT_SECRET } from './auth.tokens.js';
import { EmailTokenService } from './email-token.service.js';
import { JwtAuthGuard } from './jwt-auth.guard.js';
import { JwtStrategy } from './jwt.strategy.js';
import { SessionHandoffService } from './session-handoff.service.js';
import { SessionService } from './session.service.js';

/** Users, passwords, sessions and mailed links; exports what other modules guard routes with. */
@Module({
  imports: [PassportModule, MailModule, RateLimitModule],
  controllers: [AuthController],
  providers: [
    {
      provide: JWT_SECRET,
      inject: [GatewayConfig],
      useFactory: (config: GatewayConfig) => config.JWT_SECRET,
    },
    {
      provide: JwtService,
      inject: [JWT_SECRET],
      useFactory: (secret: string) =>
        new JwtService({ secret, signOptions: { algorithm: 'HS256' } }),
    },
    JwtStrategy,
    JwtAuthGuard,
    SessionService,
    SessionHandoffService,
    EmailTokenService,
    AuthService,
  ],
  exports: [JwtAuthGuard, SessionService, SessionHandoffService, JWT_SECRET],
})
export class AuthModule {}
