import { Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import type { OAuthProviderConfig } from './oauth-providers.js';

/** What we need from a provider about the person who signed in. */
export interface ProviderProfile {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  /** Every claim of the validated ID token and userinfo (SSO reads its groups claim here). */
  claims: Record<string, unknown>;
}

/** The secrets a started flow keeps until its callback (state, PKCE verifier, nonce). */
export interface FlowChecks {
  state: string;
  verifier: string;
  nonce: string;
}

export class OAuthProviderError extends Error {}

const logger = new Logger('OAuthClient');

/**
 * Authorization-code flow with PKCE (S256) against one provider, through openid-client: with an
 * OIDC issuer the ID token is required and validated (signature from the issuer's keys, `iss`,
 * `aud`, expiry, nonce), and so is the RFC 9207 `iss` of the redirect when the issuer announces
 * it. GitHub (not OIDC) and providers configured by explicit endpoints have no ID token: their
 * identity comes from the userinfo endpoint over the provider's TLS connection.
 */
export class OAuthClient {
  private configuration?: Promise<oidc.Configuration>;

  constructor(
    readonly provider: OAuthProviderConfig<string>,
    readonly redirectUri: string,
  ) {}

  /** New random checks for a flow about to start. */
  static checks(): FlowChecks {
    return {
      state: oidc.randomState(),
      verifier: oidc.randomPKCECodeVerifier(),
      nonce: oidc.randomNonce(),
    };
  }

  async authorizationUrl(checks: FlowChecks): Promise<string> {
    const config = await this.config();
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: this.redirectUri,
        scope: this.provider.scope,
        state: checks.state,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
        code_challenge_method: 'S256',
        ...(this.idTokens && { nonce: checks.nonce }),
      })
      .toString();
  }

  /** Redeems the callback (the full URL the provider redirected to) for the signed-in profile. */
  async profile(callback: URL, checks: FlowChecks): Promise<ProviderProfile> {
    const config = await this.config();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: checks.verifier,
        expectedState: checks.state,
        ...(this.idTokens && { expectedNonce: checks.nonce, idTokenExpected: true }),
      });
    } catch (error) {
      throw new OAuthProviderError(`${this.provider.id} sign-in failed: ${describe(error)}`);
    }
    if (this.provider.flavour === 'github') return this.githubProfile(tokens.access_token);
    const idClaims = this.idTokens ? (tokens.claims() as Record<string, unknown>) : {};
    const subject = this.idTokens ? String(idClaims.sub) : oidc.skipSubjectCheck;
    let info: Record<string, unknown> = {};
    try {
      info = (await oidc.fetchUserInfo(config, tokens.access_token, subject)) as Record<
        string,
        unknown
      >;
    } catch (error) {
      throw new OAuthProviderError(`${this.provider.id} userinfo failed: ${describe(error)}`);
    }
    // The validated ID token wins over userinfo for every claim both carry.
    const claims = { ...info, ...idClaims };
    return {
      subject: String(claims.sub ?? ''),
      email: typeof claims.email === 'string' ? claims.email : '',
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' ? claims.name : null,
      claims,
    };
  }

  private get idTokens(): boolean {
    return this.provider.flavour === 'oidc' && Boolean(this.provider.issuer);
  }

  private async githubProfile(accessToken: string): Promise<ProviderProfile> {
    const userUrl = this.provider.userinfoUrl!;
    const auth = { authorization: `Bearer ${accessToken}`, accept: 'application/json' };
    const [userResponse, emailsResponse] = await Promise.all([
      fetch(userUrl, { headers: auth }),
      fetch(`${userUrl.replace(/\/+$/, '')}/emails`, { headers: auth }),
    ]);
    const user = (await userResponse.json().catch(() => null)) as Record<string, unknown> | null;
    const emails = (await emailsResponse.json().catch(() => null)) as Array<{
      email: string;
      primary: boolean;
      verified: boolean;
    }> | null;
    if (!userResponse.ok || !user || !emailsResponse.ok || !Array.isArray(emails)) {
      throw new OAuthProviderError(
        `github profile failed: HTTP ${userResponse.status} / ${emailsResponse.status}`,
      );
    }
    const primary = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified);
    return {
      subject: String(user.id ?? ''),
      email: primary?.email ?? '',
      emailVerified: Boolean(primary),
      name: typeof user.name === 'string' ? user.name : null,
      claims: user,
    };
  }

  private config(): Promise<oidc.Configuration> {
    this.configuration ??= this.configure().catch((error: unknown) => {
      this.configuration = undefined; // discover again on the next sign-in
      throw new OAuthProviderError(`${this.provider.id} OIDC discovery failed: ${describe(error)}`);
    });
    return this.configuration;
  }

  private async configure(): Promise<oidc.Configuration> {
    const { issuer, authorizationUrl, tokenUrl, userinfoUrl, clientId, clientSecret } =
      this.provider;
    // GitHub takes client credentials in the form; OIDC servers all accept HTTP Basic.
    const auth =
      this.provider.flavour === 'github'
        ? oidc.ClientSecretPost(clientSecret)
        : oidc.ClientSecretBasic(clientSecret);
    const insecure = [issuer, authorizationUrl, tokenUrl].some((url) => url?.startsWith('http:'));
    if (insecure) logger.warn(`${this.provider.id}: the provider is reached over plain HTTP`);
    const execute = insecure ? [oidc.allowInsecureRequests] : [];
    if (this.idTokens) {
      return oidc.discovery(new URL(issuer!), clientId, undefined, auth, { execute });
    }
    const config = new oidc.Configuration(
      {
        issuer: issuer ?? new URL(authorizationUrl!).origin,
        authorization_endpoint: authorizationUrl,
        token_endpoint: tokenUrl,
        userinfo_endpoint: userinfoUrl,
      },
      clientId,
      undefined,
      auth,
    );
    execute.forEach((apply) => apply(config));
    return config;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const detail =
    cause && typeof cause === 'object' && 'error_description' in cause
      ? `: ${String((cause as { error_description: unknown }).error_description)}`
      : '';
  return `${error.message}${detail}`;
}
