import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { JWT_SECRET } from './auth.tokens.js';
import { JWT_AUDIENCE, JWT_ISSUER, type AccessClaims } from './session.service.js';

/** The signed-in user as routes see it (`@CurrentUser()`). */
export interface AuthenticatedUser {
  userId: string;
  email: string;
}

/**
 * Verifies bearer access tokens: HS256 only (so `alg: none` and key-confusion tokens fail),
 * our issuer and audience, not expired.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(JWT_SECRET) secret: string) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: secret,
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      ignoreExpiration: false,
    });
  }

  validate(claims: AccessClaims): AuthenticatedUser {
    return { userId: claims.sub, email: claims.email };
  }
}
