import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { normalizeEmail, type GroupRole, type Role } from '@memtrail/contracts';
import { PrismaClient, type Prisma, type SsoConnection } from '@memtrail/db';
import type { Request } from 'express';
import { isUuid } from '../access/access.service.js';
import { strongest } from '../access/permissions.js';
import { AuditService } from '../audit/audit.service.js';
import { SessionHandoffService } from '../auth/session-handoff.service.js';
import { IdentityError, userForIdentity } from '../oauth/identities.js';
import { OAuthClient, type ProviderProfile } from '../oauth/oauth-client.js';
import { OAuthFlowError } from '../oauth/flow-error.js';
import { OAuthFlows } from '../oauth/oauth.service.js';
import { SsoConnectionsService } from './sso-connections.service.js';
import { emailDomain, SsoPolicy } from './sso-policy.service.js';

const PROVIDER_PREFIX = 'sso:';

/** The groups a provider lists for the user: an array of names, or one name. */
function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** The strongest role any of the user's groups maps to; the default role when none does. */
export function mappedRole(
  groups: string[],
  mapping: GroupRole[],
  defaultRole: Role | null,
): Role | null {
  const held = new Set(groups);
  let role: Role | null = null;
  for (const entry of mapping) if (held.has(entry.group)) role = strongest(role, entry.role);
  return role ?? defaultRole;
}

/**
 * Sign-in through an organisation's OIDC provider, with just-in-time membership: each sign-in
 * sets the role of a member who joined by SSO from the provider's groups (up or down), and
 * removes the membership when no group maps any more and there is no default role. Members who
 * joined otherwise (invitation, creation) are never lowered by it.
 */
@Injectable()
export class SsoSignInService {
  private readonly clients = new Map<string, { updatedAt: number; client: OAuthClient }>();

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    private readonly connections: SsoConnectionsService,
    private readonly policy: SsoPolicy,
    private readonly flows: OAuthFlows,
    private readonly handoff: SessionHandoffService,
    private readonly audit: AuditService,
  ) {}

  /** Starts sign-in for an address (its domain's organisation) or a named organisation. */
  async start(query: { email?: string; organization?: string }) {
    const connection = query.organization
      ? isUuid(query.organization)
        ? await this.prisma.ssoConnection.findUnique({
            where: { organizationId: query.organization },
          })
        : null
      : query.email
        ? await this.policy.connectionFor(query.email)
        : null;
    if (!query.email && !query.organization) {
      throw new BadRequestException('Send email or organization to sign in with SSO');
    }
    if (!connection) {
      throw new NotFoundException('No organization signs in this address with SSO');
    }
    return this.flows.start(this.client(connection), PROVIDER_PREFIX + connection.organizationId);
  }

  /** Completes sign-in; returns the one-time code the web app exchanges for a session. */
  async finish(
    query: Record<string, string | undefined>,
    boundState: string | undefined,
    req: Request,
  ): Promise<string> {
    let connection: SsoConnection | null = null;
    const { profile } = await this.flows.finish(
      async (provider) => {
        connection = await this.prisma.ssoConnection.findUnique({
          where: { organizationId: provider.slice(PROVIDER_PREFIX.length) },
        });
        if (!connection) throw new OAuthFlowError('server_error', 'SSO is no longer configured');
        return this.client(connection);
      },
      null,
      query,
      boundState,
    );
    const sso = connection! as SsoConnection;
    // The organisation's provider speaks for its own domains only, whatever it asserts.
    if (!sso.domains.includes(emailDomain(profile.email))) {
      throw new OAuthFlowError(
        'foreign_domain',
        `The provider signed in ${profile.email}, outside this organization's domains`,
      );
    }
    try {
      const { userId, admitted } = await this.prisma.$transaction(async (tx) => {
        const user = await userForIdentity(tx, PROVIDER_PREFIX + sso.organizationId, profile, true);
        return {
          userId: user.id,
          admitted: await this.syncMembership(tx, sso, user.id, profile, req),
        };
      });
      if (!admitted) {
        throw new OAuthFlowError(
          'access_denied',
          'Your account at the identity provider is not in a group that may use this organization',
        );
      }
      return await this.handoff.issue(userId);
    } catch (error) {
      if (error instanceof IdentityError) throw new OAuthFlowError(error.code, error.message);
      throw error;
    }
  }

  private async syncMembership(
    tx: Prisma.TransactionClient,
    sso: SsoConnection,
    userId: string,
    profile: ProviderProfile,
    req: Request,
  ): Promise<boolean> {
    const organizationId = sso.organizationId;
    const groups = groupsOf(profile.claims, sso.groupsClaim);
    const role = mappedRole(groups, sso.groupRoles as unknown as GroupRole[], sso.defaultRole);
    const where = { organizationId_userId: { organizationId, userId } };
    const current = await tx.organizationMember.findUnique({ where });
    const actor = { type: 'user' as const, id: userId, label: normalizeEmail(profile.email) };
    const event = (action: string, details: Record<string, unknown>) =>
      this.audit.record({ action, organizationId, actor, details }, req, tx);
    if (current && current.source !== 'sso') {
      await event('sso.signed_in', { groups });
      return true;
    }
    if (!role) {
      if (current) {
        await tx.organizationMember.delete({ where });
        await tx.projectMember.deleteMany({ where: { userId, project: { organizationId } } });
        await event('member.removed', { user_id: userId, role: current.role, by: 'sso', groups });
      }
      return false;
    }
    if (!current) {
      await tx.organizationMember.create({ data: { organizationId, userId, role, source: 'sso' } });
      await event('member.joined', { user_id: userId, role, by: 'sso', groups });
    } else if (current.role !== role) {
      await tx.organizationMember.update({ where, data: { role } });
      await event('member.role_changed', {
        user_id: userId,
        from: current.role,
        to: role,
        by: 'sso',
        groups,
      });
    }
    await event('sso.signed_in', { groups });
    return true;
  }

  private client(connection: SsoConnection): OAuthClient {
    const cached = this.clients.get(connection.organizationId);
    if (cached && cached.updatedAt === connection.updatedAt.getTime()) return cached.client;
    const client = new OAuthClient(
      {
        id: `${PROVIDER_PREFIX}${connection.organizationId}`,
        clientId: connection.clientId,
        clientSecret: this.connections.clientSecret(connection),
        issuer: connection.issuer,
        flavour: 'oidc',
        scope: 'openid email profile',
      },
      this.connections.redirectUri,
    );
    this.clients.set(connection.organizationId, {
      updatedAt: connection.updatedAt.getTime(),
      client,
    });
    return client;
  }
}
