import { OAUTH_PROVIDERS, type OAuthProviderId } from '@memtrail/contracts';
import type { GatewayConfig } from '../config.js';

/**
 * One OAuth2/OIDC provider as configured by `OAUTH_<ID>_*` variables. With an issuer, endpoints
 * come from its discovery document (any OIDC server works, on-premises ones included); without,
 * from explicit URLs or the provider's public defaults.
 */
export interface OAuthProviderConfig<Id extends string = OAuthProviderId> {
  /** "github", "google", or "sso:<organization id>" for an organisation's provider. */
  id: Id;
  clientId: string;
  clientSecret: string;
  issuer?: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
  /** GitHub's API is not OIDC: email comes from /user/emails, and the scopes differ. */
  flavour: 'oidc' | 'github';
  scope: string;
}

const GITHUB_DEFAULTS = {
  authorizationUrl: 'https://github.com/login/oauth/authorize',
  tokenUrl: 'https://github.com/login/oauth/access_token',
  userinfoUrl: 'https://api.github.com/user',
};
const GOOGLE_ISSUER = 'https://accounts.google.com';
/** The scopes the spec names for OAuth sign-in (§7). */
const OIDC_SCOPE = 'openid email profile';

type ProviderVars =
  'CLIENT_ID' | 'CLIENT_SECRET' | 'ISSUER' | 'AUTHORIZATION_URL' | 'TOKEN_URL' | 'USERINFO_URL';

function variable(
  config: GatewayConfig,
  id: OAuthProviderId,
  name: ProviderVars,
): string | undefined {
  const key = `OAUTH_${id.toUpperCase()}_${name}` as keyof GatewayConfig;
  const value = config[key];
  return typeof value === 'string' && value ? value : undefined;
}

function provider(config: GatewayConfig, id: OAuthProviderId): OAuthProviderConfig | null {
  const clientId = variable(config, id, 'CLIENT_ID');
  const clientSecret = variable(config, id, 'CLIENT_SECRET');
  if (!clientId || !clientSecret) return null;
  const explicit = {
    issuer: variable(config, id, 'ISSUER'),
    authorizationUrl: variable(config, id, 'AUTHORIZATION_URL'),
    tokenUrl: variable(config, id, 'TOKEN_URL'),
    userinfoUrl: variable(config, id, 'USERINFO_URL'),
  };
  const hasEndpoints = Boolean(
    explicit.authorizationUrl && explicit.tokenUrl && explicit.userinfoUrl,
  );
  if (id === 'github' && !explicit.issuer) {
    const urls = hasEndpoints ? explicit : GITHUB_DEFAULTS;
    return {
      id,
      clientId,
      clientSecret,
      ...urls,
      flavour: 'github',
      scope: 'read:user user:email',
    };
  }
  const issuer = explicit.issuer ?? (hasEndpoints ? undefined : GOOGLE_ISSUER);
  return {
    id,
    clientId,
    clientSecret,
    ...explicit,
    ...(issuer && { issuer }),
    flavour: 'oidc',
    scope: OIDC_SCOPE,
  };
}

/** Providers whose client id and secret are both set. */
export function configuredProviders(config: GatewayConfig): OAuthProviderConfig[] {
  return OAUTH_PROVIDERS.map((id) => provider(config, id)).filter(
    (p): p is OAuthProviderConfig => p !== null,
  );
}
