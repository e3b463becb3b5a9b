import {
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  NotImplementedException,
} from '@nestjs/common';
import { AUTH_MESSAGES, type OAuthProviderId } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import { Redis } from 'ioredis';
import { publicUrl } from '../auth/auth.service.js';
import { hashOpaqueToken } from '../auth/opaque-token.js';
import { SessionHandoffService } from '../auth/session-handoff.service.js';
import { GatewayConfig } from '../config.js';
import { SsoPolicy } from '../sso/sso-policy.service.js';
import { OAuthFlowError } from './flow-error.js';
import { IdentityError, userForIdentity } from './identities.js';
import {
  OAuthClient,
  OAuthProviderError,
  type FlowChecks,
  type ProviderProfile,
} from './oauth-client.js';
import { configuredProviders } from './oauth-providers.js';

const STATE_TTL_S = 600;

interface PendingAuthorization extends FlowChecks {
  /** The client the flow runs with ("github", "google", or "sso:<organization id>"). */
  provider: string;
}

/**
 * Flow bookkeeping shared by OAuth and SSO sign-in: the checks of each started flow (state, PKCE
 * verifier, nonce) are kept in Redis (single use, 10 minutes) so any replica can finish it.
 */
@Injectable()
export class OAuthFlows {
  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async start(client: OAuthClient, provider: string): Promise<{ url: string; state: string }> {
    const checks = OAuthClient.checks();
    const pending: PendingAuthorization = { provider, ...checks };
    await this.redis.set(this.key(checks.state), JSON.stringify(pending), 'EX', STATE_TTL_S);
    return { url: await client.authorizationUrl(checks), state: checks.state };
  }

  /**
   * The profile of a finished flow. `boundState` is the state cookie of the browser that
   * started it: a callback carrying another browser's state (login CSRF) is refused.
   */
  async finish(
    resolve: (provider: string) => Promise<OAuthClient>,
    expectedProvider: string | null,
    query: Record<string, string | undefined>,
    boundState: string | undefined,
  ): Promise<{ provider: string; profile: ProviderProfile }> {
    const pending = query.state ? await this.take(query.state) : null;
    if (
      !pending ||
      (expectedProvider !== null && pending.provider !== expectedProvider) ||
      boundState !== query.state
    ) {
      throw new OAuthFlowError('invalid_state', AUTH_MESSAGES.oauthState);
    }
    if (query.error) {
      throw new OAuthFlowError(query.error, query.error_description ?? query.error);
    }
    if (!query.code) throw new OAuthFlowError('invalid_request', 'The provider sent no code');
    const client = await resolve(pending.provider);
    const callback = new URL(client.redirectUri);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) callback.searchParams.set(name, value);
    }
    try {
      return { provider: pending.provider, profile: await client.profile(callback, pending) };
    } catch (error) {
      if (!(error instanceof OAuthProviderError)) throw error;
      new Logger('OAuth').warn(error.message);
      throw new OAuthFlowError('server_error', `Sign-in with ${pending.provider} failed`);
    }
  }

  private async take(state: string): Promise<PendingAuthorization | null> {
    const raw = await this.redis.getdel(this.key(state));
    return raw ? (JSON.parse(raw) as PendingAuthorization) : null;
  }

  private key(state: string): string {
    return `${this.config.QUEUE_PREFIX}:auth:oauth:${hashOpaqueToken(state)}`;
  }
}

/**
 * OAuth sign-in with GitHub, Google or any OIDC server configured by OAUTH_* variables: users
 * are found by provider identity, else linked to a confirmed account by verified email, else
 * created. Addresses of a domain whose organisation enforces SSO must use SSO instead.
 */
@Injectable()
export class OAuthService {
  private readonly clients: Map<OAuthProviderId, OAuthClient>;

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly flows: OAuthFlows,
    private readonly handoff: SessionHandoffService,
    private readonly policy: SsoPolicy,
  ) {
    this.clients = new Map(
      configuredProviders(config).map((p) => [
        p.id,
        new OAuthClient(p, `${publicUrl(config)}/auth/oauth/${p.id}/callback`),
      ]),
    );
  }

  /** Starts a flow: returns the provider URL to send the browser to and the state to bind. */
  async start(providerId: string): Promise<{ url: string; state: string }> {
    const client = this.client(providerId);
    return this.flows.start(client, client.provider.id);
  }

  /** Completes a flow; returns the one-time code the web app exchanges for a session. */
  async finish(
    providerId: string,
    query: Record<string, string | undefined>,
    boundState: string | undefined,
  ): Promise<string> {
    const client = this.client(providerId);
    const { profile } = await this.flows.finish(
      async () => client,
      client.provider.id,
      query,
      boundState,
    );
    if (await this.policy.enforcedFor(profile.email)) {
      throw new OAuthFlowError('sso_required', AUTH_MESSAGES.ssoRequired);
    }
    try {
      const user = await this.prisma.$transaction((tx) =>
        userForIdentity(tx, client.provider.id, profile),
      );
      return await this.handoff.issue(user.id);
    } catch (error) {
      if (error instanceof IdentityError) throw new OAuthFlowError(error.code, error.message);
      throw error;
    }
  }

  private client(providerId: string): OAuthClient {
    const client = this.clients.get(providerId as OAuthProviderId);
    if (client) return client;
    if (this.config.DEPLOYMENT_MODE === 'onprem') {
      throw new NotImplementedException(AUTH_MESSAGES.oauthOnPrem);
    }
    if ((['github', 'google'] as string[]).includes(providerId)) {
      throw new NotImplementedException(`OAuth provider ${providerId} is not configured`);
    }
    throw new NotFoundException(`Unknown OAuth provider ${providerId}`);
  }
}
