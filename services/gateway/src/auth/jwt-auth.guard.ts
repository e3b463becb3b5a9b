import { createParamDecorator, Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import type { AuthenticatedUser } from './jwt.strategy.js';

/** Requires `Authorization: Bearer <access token>`; 401 in the envelope otherwise. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {}

/** `@CurrentUser() user: AuthenticatedUser` on routes behind JwtAuthGuard. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const user = context.switchToHttp().getRequest<Request>().user as AuthenticatedUser | undefined;
  if (!user) throw new Error('CurrentUser: the route is not guarded by JwtAuthGuard');
  return user;
});
