import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyGuard, apiKeyPrincipal, bearerToken } from '../../api-keys/index.js';
import { OidcUploads } from './oidc/oidc-uploads.js';
import { TokenlessUploads } from './tokenless/tokenless-uploads.js';
import { KEY_HOLDER_POLICY, setUploader, type Uploader } from './uploader.js';

/** A compact JWS: three base64url parts. API keys (`mt_…`) never look like one. */
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * Chooses how an upload authenticates, by its headers, and records the uploader on the request
 * (read it with `@UploaderOf()`):
 * - `X-Auth-Type: github-tokenless` without Authorization: the MemBrowse CLI's tokenless upload
 *   from a pull request, checked with the GitHub API once the body is decoded;
 * - `Authorization: Bearer <JWT>`: a GitHub Actions OIDC token, verified here;
 * - anything else goes to ApiKeyGuard: a project's upload key or an organisation CI token
 *   (`Authorization: Bearer mt_…`), 401 without one.
 * See docs/public-projects.md.
 */
@Injectable()
export class UploadAuthGuard implements CanActivate {
  constructor(
    @Inject(ApiKeyGuard) private readonly keys: ApiKeyGuard,
    @Inject(TokenlessUploads) private readonly tokenless: TokenlessUploads,
    @Inject(OidcUploads) private readonly oidc: OidcUploads,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    setUploader(req, await this.uploader(context, req));
    return true;
  }

  private async uploader(context: ExecutionContext, req: Request): Promise<Uploader> {
    const token = bearerToken(req);
    const authType = String(req.headers['x-auth-type'] ?? '').toLowerCase();
    if (!token && authType === 'github-tokenless') return this.tokenless.uploader(req);
    if (token && JWT.test(token)) return this.oidc.uploader(token);
    // Keys, their scopes and organisation CI tokens are ApiKeyGuard's to check.
    await this.keys.canActivate(context);
    const key = apiKeyPrincipal(req);
    return {
      rateLimit: { subject: key.apiKeyId, what: 'this API key' },
      authorize: async (upload) => ({
        projectId: key.projectId,
        upload,
        policy: KEY_HOLDER_POLICY,
      }),
    };
  }
}
