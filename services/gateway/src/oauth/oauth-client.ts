import { createHash, randomBytes } from 'node:crypto';
import type { OAuthProviderConfig } from './oauth-providers.js';

/** What we need from a provider about the person who signed in. */
export interface ProviderProfile {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
}

interface Endpoints {
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
}

export class OAuthProviderError extends Error {}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function json(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok || typeof body !== 'object' || body === null) {
    throw new OAuthProviderError(`${what} failed: HTTP ${response.status} ${text.slice(0, 200)}`);
  }
  return body as Record<string, unknown>;
}

/**
 * Authorization-code flow with PKCE (S256) against one provider. Identity comes from the
 * userinfo endpoint over the provider's TLS connection, so no ID-token signature handling is
 * needed.
 */
export class OAuthClient {
  private discovered?: Promise<Endpoints>;

  constructor(
    readonly provider: OAuthProviderConfig,
    private readonly redirectUri: string,
  ) {}

  async authorizationUrl(state: string, challenge: string): Promise<string> {
    const { authorizationUrl } = await this.endpoints();
    const url = new URL(authorizationUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.provider.clientId,
      redirect_uri: this.redirectUri,
      scope: this.provider.scope,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  /** Exchanges the code (with the verifier the provider checks) and reads the profile. */
  async profile(code: string, verifier: string): Promise<ProviderProfile> {
    const { tokenUrl, userinfoUrl } = await this.endpoints();
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.redirectUri,
      code_verifier: verifier,
    });
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    };
    if (this.provider.flavour === 'github') {
      form.set('client_id', this.provider.clientId);
      form.set('client_secret', this.provider.clientSecret);
    } else {
      const credentials = `${encodeURIComponent(this.provider.clientId)}:${encodeURIComponent(this.provider.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    const token = await json(
      await fetch(tokenUrl, { method: 'POST', headers, body: form }),
      `${this.provider.id} token exchange`,
    );
    if (typeof token.access_token !== 'string') {
      throw new OAuthProviderError(
        `${this.provider.id} token exchange failed: ${String(token.error_description ?? token.error ?? 'no access_token')}`,
      );
    }
    const auth = { authorization: `Bearer ${token.access_token}`, accept: 'application/json' };
    const info = await json(
      await fetch(userinfoUrl, { headers: auth }),
      `${this.provider.id} userinfo`,
    );
    if (this.provider.flavour === 'github') return this.githubProfile(info, auth, userinfoUrl);
    return {
      subject: String(info.sub ?? ''),
      email: typeof info.email === 'string' ? info.email : '',
      emailVerified: info.email_verified === true,
      name: typeof info.name === 'string' ? info.name : null,
    };
  }

  private async githubProfile(
    user: Record<string, unknown>,
    auth: Record<string, string>,
    userUrl: string,
  ): Promise<ProviderProfile> {
    const response = await fetch(`${userUrl.replace(/\/+$/, '')}/emails`, { headers: auth });
    const emails = (await response.json()) as Array<{
      email: string;
      primary: boolean;
      verified: boolean;
    }>;
    if (!response.ok || !Array.isArray(emails)) {
      throw new OAuthProviderError(`github emails failed: HTTP ${response.status}`);
    }
    const primary = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified);
    return {
      subject: String(user.id ?? ''),
      email: primary?.email ?? '',
      emailVerified: Boolean(primary),
      name: typeof user.name === 'string' ? user.name : null,
    };
  }

  private endpoints(): Promise<Endpoints> {
    const { issuer, authorizationUrl, tokenUrl, userinfoUrl } = this.provider;
    if (authorizationUrl && tokenUrl && userinfoUrl) {
      return Promise.resolve({ authorizationUrl, tokenUrl, userinfoUrl });
    }
    this.discovered ??= this.discover(issuer!).catch((error: unknown) => {
      this.discovered = undefined; // retry discovery on the next sign-in
      throw error;
    });
    return this.discovered;
  }

  private async discover(issuer: string): Promise<Endpoints> {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const doc = await json(await fetch(url), `${this.provider.id} OIDC discovery at ${url}`);
    const pick = (key: string, override?: string) => {
      const value = override ?? doc[key];
      if (typeof value !== 'string') {
        throw new OAuthProviderError(`${this.provider.id} OIDC discovery at ${url} has no ${key}`);
      }
      return value;
    };
    return {
      authorizationUrl: pick('authorization_endpoint', this.provider.authorizationUrl),
      tokenUrl: pick('token_endpoint', this.provider.tokenUrl),
      userinfoUrl: pick('userinfo_endpoint', this.provider.userinfoUrl),
    };
  }
}
