import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

const PUBLIC_READABLE = 'memtrail:public-readable';

/**
 * Marks a `project:read` route (handler or controller) that anyone may call on a public
 * project, signed in or not; AccessGuard admits them. Only reads of a project's reports belong
 * here: region configuration, budgets, members, keys and settings stay with its members.
 */
export const PublicReadable = () => SetMetadata(PUBLIC_READABLE, true);

export function isPublicReadable(reflector: Reflector, context: ExecutionContext): boolean {
  return (
    reflector.getAllAndOverride<boolean | undefined>(PUBLIC_READABLE, [
      context.getHandler(),
      context.getClass(),
    ]) === true
  );
}
