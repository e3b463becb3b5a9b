import {
  createParamDecorator,
  ForbiddenException,
  Injectable,
  NotFoundException,
  SetMetadata,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { TargetRef } from '@memtrail/contracts';
import type { Request } from 'express';
import { bearerToken } from '../api-keys/api-key.guard.js';
import type { ApiKeyPrincipal } from '../api-keys/api-key-principal.js';
import { ApiKeyService } from '../api-keys/api-key.service.js';
import { API_KEY_PREFIX } from '../api-keys/api-key-format.js';
import { JwtAuthGuard } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { AccessService, type OrganizationAccess, type ProjectAccess } from './access.service.js';
import type { Permission } from './permissions.js';
import { PublicProjects } from '../public-access/public-projects.js';
import { isPublicReadable } from '../public-access/public-readable.js';

/**
 * What a route needs: a permission on the project its `:project` (or `:id`) parameter names, a
 * permission on the organisation its `:org` parameter names, or only a signed-in user
 * ("account": the caller's own things).
 */
export type Requirement =
  | { on: 'project'; permission: Permission }
  | { on: 'organization'; permission: Permission | 'member' }
  | { on: 'account' };

const REQUIRES = 'memtrail:requires';

export const Requires = (permission: Permission) =>
  SetMetadata(REQUIRES, { on: 'project', permission } satisfies Requirement);
export const RequiresOnOrganization = (permission: Permission | 'member') =>
  SetMetadata(REQUIRES, { on: 'organization', permission } satisfies Requirement);
export const RequiresAccount = () => SetMetadata(REQUIRES, { on: 'account' } satisfies Requirement);

type GuardedRequest = Request & {
  apiKey?: ApiKeyPrincipal;
  access?: ProjectAccess | OrganizationAccess;
};

/**
 * The one guard of every user-facing `/api` route: authenticates the caller (a user's access
 * token; on `project:read` GET routes also a read-scoped API key of that project; on
 * `@PublicReadable()` routes of a public project nobody at all) and enforces the
 * permission table for the route's requirement. A route without a requirement is refused, so a
 * new endpoint cannot be left open by mistake.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
    private readonly keys: ApiKeyService,
    private readonly jwt: JwtAuthGuard,
    private readonly publicProjects: PublicProjects,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<Requirement | undefined>(REQUIRES, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!requirement) {
      throw new Error(`AccessGuard: ${context.getClass().name} has a route without @Requires`);
    }
    const req = context.switchToHttp().getRequest<GuardedRequest>();
    const token = bearerToken(req);
    if (
      token?.startsWith(API_KEY_PREFIX) &&
      req.method === 'GET' &&
      requirement.on === 'project' &&
      requirement.permission === 'project:read'
    ) {
      return this.admitReadKey(req, token);
    }
    if (
      requirement.on === 'project' &&
      req.method === 'GET' &&
      isPublicReadable(this.reflector, context)
    ) {
      return this.admitReader(context, req, token, requirement.permission);
    }
    await this.jwt.canActivate(context);
    const user = req.user as AuthenticatedUser;
    if (requirement.on === 'account') return true;
    if (requirement.on === 'organization') {
      req.access = await this.access.requireOrganization(
        user.userId,
        String(req.params.org),
        requirement.permission,
      );
      return true;
    }
    const projectId = String(req.params.project ?? req.params.id);
    req.access = await this.access.requireProject(user.userId, projectId, requirement.permission);
    return true;
  }

  /**
   * A `@PublicReadable()` read: members as usual, and anyone else, signed in or not, when the
   * project is public. Otherwise the usual answers (401 signed out, 404 for non-members), so a
   * private project reads exactly like a missing one. An invalid session stays a 401.
   */
  private async admitReader(
    context: ExecutionContext,
    req: GuardedRequest,
    token: string | null,
    permission: Permission,
  ): Promise<boolean> {
    const projectId = String(req.params.project ?? req.params.id);
    if (!token) {
      if (await this.publicProjects.isPublic(projectId)) return true;
      throw new UnauthorizedException();
    }
    await this.jwt.canActivate(context);
    const user = req.user as AuthenticatedUser;
    try {
      req.access = await this.access.requireProject(user.userId, projectId, permission);
    } catch (error) {
      if (!(error instanceof NotFoundException && (await this.publicProjects.isPublic(projectId))))
        throw error;
    }
    return true;
  }

  private async admitReadKey(req: GuardedRequest, token: string): Promise<boolean> {
    const key = await this.keys.verify(token, { ip: req.ip, userAgent: req.headers['user-agent'] });
    if (!key) throw new UnauthorizedException('Invalid API key');
    if (key.scope !== 'read') {
      throw new ForbiddenException(
        `API key "${key.name}" has the ${key.scope} scope; reading needs a read key`,
      );
    }
    const projectId = String(req.params.project ?? req.params.id);
    if (key.projectId !== projectId) throw new NotFoundException(`Project ${projectId} not found`);
    req.apiKey = { ...key, projectId };
    return true;
  }
}

/** The access AccessGuard granted on a project route. */
export const CurrentProjectAccess = createParamDecorator(
  (_: unknown, context: ExecutionContext): ProjectAccess => {
    const req = context.switchToHttp().getRequest<GuardedRequest>();
    if (req.apiKey) {
      return {
        projectId: req.apiKey.projectId,
        organizationId: req.apiKey.organizationId,
        role: 'viewer',
      };
    }
    const access = req.access;
    if (!access || !('projectId' in access)) {
      throw new Error('CurrentProjectAccess: the route is not guarded by a project requirement');
    }
    return access;
  },
);

/** The caller's role in the organisation of an `:org` route. */
export const CurrentOrganizationAccess = createParamDecorator(
  (_: unknown, context: ExecutionContext): OrganizationAccess => {
    const access = context.switchToHttp().getRequest<GuardedRequest>().access;
    if (!access || 'projectId' in access) {
      throw new Error('CurrentOrganizationAccess: the route has no organisation requirement');
    }
    return access;
  },
);

/** The project and target of a `:project/:target` route. */
export const Target = createParamDecorator((_: unknown, context: ExecutionContext): TargetRef => {
  const req = context.switchToHttp().getRequest<Request>();
  return { projectId: String(req.params.project), target: String(req.params.target) };
});
