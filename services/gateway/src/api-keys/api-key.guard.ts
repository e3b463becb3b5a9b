import {
  BadRequestException,
  createParamDecorator,
  ForbiddenException,
  Inject,
  Injectable,
  SetMetadata,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PROJECT_HEADER, type ApiKeyScope } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import type { Request } from 'express';
import type { ApiKeyPrincipal, VerifiedApiKey } from './api-key-principal.js';
import { ApiKeyService } from './api-key.service.js';

type RequestWithApiKey = Request & { apiKey?: ApiKeyPrincipal };

const KEY_SCOPES = 'memtrail:key-scopes';

/** The key scopes a route behind ApiKeyGuard accepts (default: upload keys only). */
export const AcceptsKeyScopes = (...scopes: ApiKeyScope[]) => SetMetadata(KEY_SCOPES, scopes);

/** Reads `Authorization: Bearer <key>`; null when the header is missing or another scheme. */
export function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Admits requests carrying a valid API key as `Authorization: Bearer mt_…` of a scope the route
 * accepts, and records the principal on the request (read it with `@ApiKeyProject()`). An
 * organisation CI token names its project in the `X-Memtrail-Project` header (id, or a name
 * unique in the organisation). Missing or bad keys get a 401 in the product envelope.
 *
 * ```ts
 * @Post('upload') @UseGuards(ApiKeyGuard)
 * upload(@ApiKeyProject() key: ApiKeyPrincipal) { key.projectId … }
 * ```
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly reflector: Reflector,
    @Inject(SqlPool) private readonly sql: SqlPool,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithApiKey>();
    const raw = bearerToken(req);
    if (!raw) throw new UnauthorizedException('API key required: send Authorization: Bearer <key>');
    const key = await this.keys.verify(raw, { ip: req.ip, userAgent: req.headers['user-agent'] });
    if (!key) throw new UnauthorizedException('Invalid API key');
    const scopes = this.reflector.getAllAndOverride<ApiKeyScope[] | undefined>(KEY_SCOPES, [
      context.getHandler(),
      context.getClass(),
    ]) ?? ['upload'];
    if (!scopes.includes(key.scope)) {
      throw new ForbiddenException(
        `API key "${key.name}" has the ${key.scope} scope; this call needs ${scopes.join(' or ')}`,
      );
    }
    req.apiKey = { ...key, projectId: key.projectId ?? (await this.chosenProject(key, req)) };
    return true;
  }

  private async chosenProject(key: VerifiedApiKey, req: Request): Promise<string> {
    const named = req.headers[PROJECT_HEADER];
    const value = typeof named === 'string' ? named.trim() : '';
    if (!value) {
      throw new BadRequestException(
        `An organisation CI token must name its project: send the ${PROJECT_HEADER} header with a project id or name`,
      );
    }
    // Runs per upload of an organisation token: plain SQL (see SqlPool).
    const { rows: matches } = await this.sql.query<{ id: string }>(
      `SELECT id FROM projects
       WHERE organization_id = $1 AND deleted_at IS NULL AND (id = $2::uuid OR name = $3)
       LIMIT 2`,
      UUID.test(value) ? [key.organizationId, value, null] : [key.organizationId, null, value],
    );
    if (matches.length === 0) {
      throw new ForbiddenException(`No project "${value}" in the token's organisation`);
    }
    if (matches.length > 1) {
      throw new BadRequestException(
        `Several projects are named "${value}" in the organisation: send the project id instead`,
      );
    }
    return matches[0]!.id;
  }
}

/** The principal `ApiKeyGuard` accepted; only valid on routes behind that guard. */
export function apiKeyPrincipal(req: Request): ApiKeyPrincipal {
  const principal = (req as RequestWithApiKey).apiKey;
  if (!principal) throw new Error('apiKeyPrincipal: the route is not guarded by ApiKeyGuard');
  return principal;
}

/** Parameter decorator: `@ApiKeyProject() key: ApiKeyPrincipal`. */
export const ApiKeyProject = createParamDecorator((_: unknown, context: ExecutionContext) =>
  apiKeyPrincipal(context.switchToHttp().getRequest<Request>()),
);
