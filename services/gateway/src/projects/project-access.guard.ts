import {
  createParamDecorator,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { TargetRef } from '@memtrail/contracts';
import type { Request } from 'express';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { ProjectAccessService } from './project-access.service.js';

const targetOf = (req: Request): TargetRef => ({
  projectId: String(req.params.project),
  target: String(req.params.target),
});

/**
 * Lets a signed-in caller reach `:project/...` routes only as a member of the project (404
 * otherwise, so non-members cannot tell a project exists). Runs after JwtAuthGuard.
 */
@Injectable()
export class ProjectAccessGuard implements CanActivate {
  constructor(@Inject(ProjectAccessService) private readonly access: ProjectAccessService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const user = req.user as AuthenticatedUser | undefined;
    if (!user) throw new Error('ProjectAccessGuard: the route is not guarded by JwtAuthGuard');
    await this.access.require(user.userId, String(req.params.project));
    return true;
  }
}

/** The project and target a ProjectAccessGuard-checked `:project/:target` route names. */
export const Target = createParamDecorator((_: unknown, context: ExecutionContext) =>
  targetOf(context.switchToHttp().getRequest<Request>()),
);
