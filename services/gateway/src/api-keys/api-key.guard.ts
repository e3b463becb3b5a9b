import {
  createParamDecorator,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyService, type ApiKeyPrincipal } from './api-key.service.js';

type RequestWithApiKey = Request & { apiKey?: ApiKeyPrincipal };

/** Reads `Authorization: Bearer <key>`; null when the header is missing or another scheme. */
export function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * Admits requests carrying a valid project API key as `Authorization: Bearer mt_…` and records
 * the key's project on the request (read it with `@ApiKeyProject()`). Missing or bad keys get a
 * 401 in the product envelope.
 *
 * ```ts
 * @Post('upload') @UseGuards(ApiKeyGuard)
 * upload(@ApiKeyProject() key: ApiKeyPrincipal) { key.projectId … }
 * ```
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithApiKey>();
    const raw = bearerToken(req);
    if (!raw) throw new UnauthorizedException('API key required: send Authorization: Bearer <key>');
    const principal = await this.keys.verify(raw);
    if (!principal) throw new UnauthorizedException('Invalid API key');
    req.apiKey = principal;
    return true;
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
