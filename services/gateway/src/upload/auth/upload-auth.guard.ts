import {
  Inject,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyService, bearerToken } from '../../api-keys/index.js';
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
 * - `Authorization: Bearer mt_…`: a project API key.
 * Anything else is a 401 in the upload envelope. See docs/public-projects.md.
 */
@Injectable()
export class UploadAuthGuard implements CanActivate {
  constructor(
    @Inject(ApiKeyService) private readonly keys: ApiKeyService,
    @Inject(TokenlessUploads) private readonly tokenless: TokenlessUploads,
    @Inject(OidcUploads) private readonly oidc: OidcUploads,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    setUploader(req, await this.uploader(req));
    return true;
  }

  private async uploader(req: Request): Promise<Uploader> {
    const token = bearerToken(req);
    const authType = String(req.headers['x-auth-type'] ?? '').toLowerCase();
    if (!token && authType === 'github-tokenless') return this.tokenless.uploader(req);
    if (!token) {
      throw new UnauthorizedException('API key required: send Authorization: Bearer <key>');
    }
    if (JWT.test(token)) return this.oidc.uploader(token);
    const key = await this.keys.verify(token);
    if (!key) throw new UnauthorizedException('Invalid API key');
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
