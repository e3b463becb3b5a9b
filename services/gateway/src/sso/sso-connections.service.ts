import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { GroupRole, Role, SsoConnection } from '@memtrail/contracts';
import { PrismaClient, type Prisma, type SsoConnection as SsoRow } from '@memtrail/db';
import type { Request } from 'express';
import { AuditService } from '../audit/audit.service.js';
import { publicUrl } from '../auth/auth.service.js';
import { JWT_SECRET } from '../auth/auth.tokens.js';
import { GatewayConfig } from '../config.js';
import { roleInput } from '../organizations/organizations.service.js';
import { SecretBox } from './secret-box.js';
import { emailDomain } from './sso-policy.service.js';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const GROUPS_MAX = 200;

type Body = Record<string, unknown> | undefined;

function text(body: Body, name: string, max: number, required: boolean): string | undefined {
  const value = body?.[name];
  if (value === undefined || value === null || value === '') {
    if (required) throw new BadRequestException(`${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string' || value.trim().length > max) {
    throw new BadRequestException(`${name} must be text of at most ${max} characters`);
  }
  return value.trim();
}

function issuerInput(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequestException('issuer must be the URL of an OpenID Connect issuer');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BadRequestException('issuer must be an http(s) URL');
  }
  return value.replace(/\/+$/, '');
}

function domainsInput(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 20) {
    throw new BadRequestException('domains must list 1-20 email domains');
  }
  const domains = value.map((d) => (typeof d === 'string' ? d.trim().toLowerCase() : ''));
  const bad = domains.find((d) => !DOMAIN.test(d));
  if (bad !== undefined) throw new BadRequestException(`"${bad}" is not an email domain`);
  return [...new Set(domains)];
}

function groupRolesInput(value: unknown): GroupRole[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > GROUPS_MAX) {
    throw new BadRequestException(`group_roles must list at most ${GROUPS_MAX} {group, role}`);
  }
  return value.map((entry: unknown, index) => {
    const item = entry as Record<string, unknown> | null;
    const group = typeof item?.group === 'string' ? item.group.trim() : '';
    if (!group || group.length > 256) {
      throw new BadRequestException(`group_roles[${index}].group must be 1-256 characters`);
    }
    return { group, role: roleInput(item?.role, `group_roles[${index}].role`) };
  });
}

/**
 * An organisation's OIDC connection. Its email domains are claimed by one organisation only,
 * and only for domains an owner of the organisation has an address in.
 */
@Injectable()
export class SsoConnectionsService {
  private readonly box: SecretBox;

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    @Inject(JWT_SECRET) secret: string,
    private readonly audit: AuditService,
  ) {
    this.box = new SecretBox(secret);
  }

  get redirectUri(): string {
    return `${publicUrl(this.config)}/auth/sso/callback`;
  }

  async get(organizationId: string): Promise<SsoConnection | null> {
    const row = await this.prisma.ssoConnection.findUnique({ where: { organizationId } });
    return row ? this.toConnection(row) : null;
  }

  /** The stored client secret, for the sign-in flow. */
  clientSecret(row: SsoRow): string {
    return this.box.open(row.clientSecretSealed);
  }

  async put(organizationId: string, body: Body, req: Request): Promise<SsoConnection> {
    const existing = await this.prisma.ssoConnection.findUnique({ where: { organizationId } });
    const secret = text(body, 'client_secret', 1000, !existing);
    const domains = domainsInput(body?.domains);
    await this.assertDomainsClaimable(organizationId, domains);
    const defaultRole =
      body?.default_role === null
        ? null
        : body?.default_role === undefined
          ? 'member'
          : roleInput(body.default_role, 'default_role');
    if (defaultRole === 'owner') throw new BadRequestException('default_role cannot be owner');
    const data = {
      issuer: issuerInput(text(body, 'issuer', 1000, true)!),
      clientId: text(body, 'client_id', 500, true)!,
      domains,
      enforced: body?.enforced === true,
      groupsClaim: text(body, 'groups_claim', 100, false) ?? 'groups',
      groupRoles: groupRolesInput(body?.group_roles) as unknown as Prisma.InputJsonArray,
      defaultRole: defaultRole as Role | null,
      ...(secret && { clientSecretSealed: this.box.seal(secret) }),
    };
    const row = await this.prisma.$transaction(async (tx) => {
      // Creating needs the secret (checked above); an update without one keeps the stored one.
      const saved = existing
        ? await tx.ssoConnection.update({ where: { organizationId }, data })
        : await tx.ssoConnection.create({
            data: { organizationId, ...data, clientSecretSealed: data.clientSecretSealed! },
          });
      await this.audit.record(
        {
          action: 'sso.updated',
          organizationId,
          details: {
            issuer: data.issuer,
            client_id: data.clientId,
            domains,
            enforced: data.enforced,
            secret_changed: Boolean(secret),
          },
        },
        req,
        tx,
      );
      return saved;
    });
    return this.toConnection(row);
  }

  async remove(organizationId: string, req: Request): Promise<void> {
    const removed = await this.prisma.ssoConnection.deleteMany({ where: { organizationId } });
    if (removed.count === 0) throw new NotFoundException('This organization has no SSO connection');
    await this.audit.record({ action: 'sso.removed', organizationId }, req);
  }

  private async assertDomainsClaimable(organizationId: string, domains: string[]): Promise<void> {
    const taken = await this.prisma.ssoConnection.findFirst({
      where: { organizationId: { not: organizationId }, domains: { hasSome: domains } },
      select: { domains: true },
    });
    if (taken) {
      const clash = domains.filter((d) => taken.domains.includes(d));
      throw new ConflictException(`${clash.join(', ')} is already claimed by another organization`);
    }
    const owners = await this.prisma.organizationMember.findMany({
      where: { organizationId, role: 'owner' },
      select: { user: { select: { email: true } } },
    });
    const ownerDomains = new Set(owners.map((o) => emailDomain(o.user.email)));
    const foreign = domains.filter((d) => !ownerDomains.has(d));
    if (foreign.length > 0) {
      throw new BadRequestException(
        `An owner of the organization must have an email address at ${foreign.join(', ')} to claim it`,
      );
    }
  }

  private toConnection(row: SsoRow): SsoConnection {
    return {
      issuer: row.issuer,
      client_id: row.clientId,
      client_secret_set: Boolean(row.clientSecretSealed),
      domains: row.domains,
      enforced: row.enforced,
      groups_claim: row.groupsClaim,
      group_roles: row.groupRoles as unknown as GroupRole[],
      default_role: row.defaultRole,
      redirect_uri: this.redirectUri,
    };
  }
}
