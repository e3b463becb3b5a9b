import {
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  NotImplementedException,
} from '@nestjs/common';
import {
  AUTH_MESSAGES,
  normalizeEmail,
  validateEmail,
  type OAuthProviderId,
} from '@memtrail/contracts';
import { PrismaClient, type User } from '@memtrail/db';
import { Redis } from 'ioredis';
import { publicUrl } from '../auth/auth.service.js';
import { hashOpaqueToken, newOpaqueToken } from '../auth/opaque-token.js';
import { SessionHandoffService } from '../auth/session-handoff.service.js';
import { GatewayConfig } from '../config.js';
import { OAuthClient, OAuthProviderError, pkcePair, type ProviderProfile } from './oauth-client.js';
import { configuredProviders } from './oauth-providers.js';

const STATE_TTL_S = 600;

interface PendingAuthorization {
  provider: OAuthProviderId;
  verifier: string;
}

/** Raised for a callback that cannot complete; the controller sends the browser to the root. */
export class OAuthFlowError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * OAuth sign-in: the state and PKCE verifier of each started flow are kept in Redis (single
 * use, 10 minutes) so any replica can finish it; users are found by provider identity, else
 * linked by verified email, else created.
 */
@Injectable()
export class OAuthService {
  private readonly logger = new Logger('OAuth');
  private readonly clients: Map<OAuthProviderId, OAuthClient>;

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(Redis) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly handoff: SessionHandoffService,
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
    const state = newOpaqueToken();
    const { verifier, challenge } = pkcePair();
    const pending: PendingAuthorization = { provider: client.provider.id, verifier };
    await this.redis.set(this.stateKey(state), JSON.stringify(pending), 'EX', STATE_TTL_S);
    return { url: await client.authorizationUrl(state, challenge), state };
  }

  /**
   * Completes a flow. `boundState` is the state cookie of the browser that started it: a
   * callback carrying another browser's state (login CSRF) is refused.
   */
  async finish(
    providerId: string,
    query: { code?: string; state?: string; error?: string; error_description?: string },
    boundState: string | undefined,
  ): Promise<string> {
    const client = this.client(providerId);
    const pending = query.state ? await this.takeState(query.state) : null;
    if (!pending || pending.provider !== client.provider.id || boundState !== query.state) {
      throw new OAuthFlowError('invalid_state', AUTH_MESSAGES.oauthState);
    }
    if (query.error) {
      throw new OAuthFlowError(query.error, query.error_description ?? query.error);
    }
    if (!query.code) throw new OAuthFlowError('invalid_request', 'The provider sent no code');
    let profile: ProviderProfile;
    try {
      profile = await client.profile(query.code, pending.verifier);
    } catch (error) {
      if (!(error instanceof OAuthProviderError)) throw error;
      this.logger.warn(error.message);
      throw new OAuthFlowError('server_error', `Sign-in with ${providerId} failed`);
    }
    const user = await this.link(client.provider.id, profile);
    return this.handoff.issue(user.id);
  }

  private async link(provider: OAuthProviderId, profile: ProviderProfile): Promise<User> {
    const email = normalizeEmail(profile.email);
    if (!profile.subject || !profile.emailVerified || validateEmail(email)) {
      throw new OAuthFlowError('unverified_email', AUTH_MESSAGES.oauthEmail);
    }
    const identity = await this.prisma.oAuthIdentity.findUnique({
      where: { provider_subject: { provider, subject: profile.subject } },
      include: { user: true },
    });
    if (identity) return identity.user;
    return this.prisma.$transaction(async (tx) => {
      const existing = await tx.user.findUnique({ where: { email } });
      const user = existing
        ? await tx.user.update({
            where: { id: existing.id },
            // An unconfirmed account's password was set by whoever typed the address, maybe not
            // its owner: the provider's proof of the address wins and that password is dropped.
            data: existing.emailConfirmedAt
              ? {}
              : { emailConfirmedAt: new Date(), passwordHash: null },
          })
        : await tx.user.create({
            data: { email, fullName: profile.name, emailConfirmedAt: new Date() },
          });
      await tx.oAuthIdentity.create({
        data: { userId: user.id, provider, subject: profile.subject, email },
      });
      return user;
    });
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

  private async takeState(state: string): Promise<PendingAuthorization | null> {
    const raw = await this.redis.getdel(this.stateKey(state));
    return raw ? (JSON.parse(raw) as PendingAuthorization) : null;
  }

  private stateKey(state: string): string {
    return `${this.config.QUEUE_PREFIX}:auth:oauth:${hashOpaqueToken(state)}`;
  }
}
