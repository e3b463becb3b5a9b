import {
  HttpException,
  Inject,
  Injectable,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { oidcAudience } from '@memtrail/contracts';
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { GatewayConfig } from '../../../config.js';

/** The claims of a GitHub Actions OIDC token that uploads are decided on. */
export interface ActionsClaims {
  /** `owner/name` of the repository whose workflow asked for the token. */
  repository: string;
  repository_id?: string;
  /** The event that started the workflow: push, pull_request, workflow_dispatch… */
  event_name: string;
  /** refs/heads/main, refs/pull/12/merge, refs/tags/v1… */
  ref: string;
}

const PROJECT_AUDIENCE =
  /^memtrail:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const TIMEOUT_MS = 10_000;
/** jose's codes for an issuer that could not be asked, as opposed to a bad token. */
const ISSUER_TROUBLE = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

/** The project a token's audience names, before anything about the token is trusted. */
function audienceProject(token: string): string {
  let aud: unknown;
  try {
    aud = decodeJwt(token).aud;
  } catch {
    throw new UnauthorizedException('Invalid API key or OIDC token');
  }
  const candidates = Array.isArray(aud) ? aud : [aud];
  for (const candidate of candidates) {
    const match = typeof candidate === 'string' ? PROJECT_AUDIENCE.exec(candidate) : null;
    if (match) return match[1]!.toLowerCase();
  }
  throw new UnauthorizedException(
    'The OIDC token must be requested for the audience memtrail:<project id> ' +
      '(shown in the project settings)',
  );
}

/**
 * Verifies GitHub Actions OIDC tokens: RS256 signature by a key of the issuer's JWKS (found
 * through its discovery document; jose caches the keys and refetches them for an unknown key
 * id), issuer OIDC_ISSUER, expiry, and an audience naming one project. An issuer that cannot
 * be reached is a 503 (clients retry), any fault of the token a 401.
 */
@Injectable()
export class OidcTokens {
  private keys: Promise<JWTVerifyGetKey> | undefined;

  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {}

  async verify(token: string): Promise<{ projectId: string; claims: ActionsClaims }> {
    const projectId = audienceProject(token);
    try {
      const { payload } = await jwtVerify<Partial<ActionsClaims>>(token, await this.keySet(), {
        issuer: this.config.OIDC_ISSUER,
        audience: oidcAudience(projectId),
        algorithms: ['RS256'],
        requiredClaims: ['exp'],
        clockTolerance: 30,
      });
      const { repository, event_name, ref, repository_id } = payload;
      if (typeof repository !== 'string' || typeof event_name !== 'string') {
        throw new UnauthorizedException(
          'The OIDC token has no repository or event_name claim: only GitHub Actions tokens are accepted',
        );
      }
      return {
        projectId,
        claims: {
          repository,
          event_name,
          ref: typeof ref === 'string' ? ref : '',
          ...(repository_id === undefined ? {} : { repository_id: String(repository_id) }),
        },
      };
    } catch (error) {
      if (error instanceof HttpException) throw error;
      if (error instanceof errors.JOSEError && !ISSUER_TROUBLE.has(error.code)) {
        throw new UnauthorizedException(`OIDC token rejected: ${error.message}`);
      }
      // Discovered again next time, in case the issuer moved its keys.
      this.keys = undefined;
      throw new ServiceUnavailableException(
        `OIDC issuer ${this.config.OIDC_ISSUER} could not be asked for its keys: ` +
          `${(error as Error).message}; retry later`,
      );
    }
  }

  private keySet(): Promise<JWTVerifyGetKey> {
    this.keys ??= this.discover().catch((error: unknown) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  private async discover(): Promise<JWTVerifyGetKey> {
    const issuer = this.config.OIDC_ISSUER.replace(/\/+$/, '');
    const response = await fetch(`${issuer}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) {
      throw new Error(`its discovery document answered ${response.status} ${response.statusText}`);
    }
    const document = (await response.json()) as { jwks_uri?: unknown };
    if (typeof document.jwks_uri !== 'string') {
      throw new Error('its discovery document has no jwks_uri');
    }
    return createRemoteJWKSet(new URL(document.jwks_uri), { timeoutDuration: TIMEOUT_MS });
  }
}
