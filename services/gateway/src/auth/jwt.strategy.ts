import { createSecretKey } from 'node:crypto';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { JWT_SECRET } from './auth.tokens.js';
import { JWT_AUDIENCE, JWT_ISSUER, SessionService, type AccessClaims } from './session.service.js';

/** The signed-in user as routes see it (`@CurrentUser()`). */
export interface AuthenticatedUser {
  userId: string;
  email: string;
}

/**
 * Verifies bearer access tokens: HS256 only (so `alg: none` and key-confusion tokens fail),
 * our issuer and audience, not expired, and of a session that was not ended since.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(JWT_SECRET) secret: string,
    @Inject(SessionService) private readonly sessions: SessionService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A key object, made once: given a string or buffer, jsonwebtoken first tries it as a PEM
      // public key on every request and fails (about 0.9 ms of the event loop per authenticated
      // call). passport-jwt hands it to jsonwebtoken untouched; its typings omit KeyObject.
      secretOrKey: createSecretKey(Buffer.from(secret, 'utf8')) as unknown as Buffer,
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      ignoreExpiration: false,
    });
  }

  async validate(claims: AccessClaims): Promise<AuthenticatedUser> {
    if (typeof claims.sid !== 'string' || !(await this.sessions.isLive(claims.sid))) {
      throw new UnauthorizedException();
    }
    return { userId: claims.sub, email: claims.email };
  }
}
