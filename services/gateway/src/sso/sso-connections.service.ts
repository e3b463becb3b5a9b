import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { GroupRole, SsoConnection } from '@memtrail/contracts';
import { PrismaClient, type Prisma, type SsoConnection as SsoRow } from '@memtrail/db';
import type { Request } from 'express';
import { AuditService } from '../audit/audit.service.js';
import { publicUrl } from '../auth/auth.service.js';
import { JWT_SECRET } from '../auth/auth.tokens.js';
import { GatewayConfig } from '../config.js';
import type { BodyOf } from '../http/input.js';
import { SecretBox } from './secret-box.js';
import { emailDomain } from './sso-policy.service.js';

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

  async put(
    organizationId: string,
    body: BodyOf<'PUT /api/orgs/{org}/sso'>,
    req: Request,
  ): Promise<SsoConnection> {
    const existing = await this.prisma.ssoConnection.findUnique({ where: { organizationId } });
    const secret = body.client_secret;
    if (!existing && !secret) throw new BadRequestException('client_secret is required');
    await this.assertDomainsClaimable(organizationId, body.domains);
    const data = {
      issuer: body.issuer,
      clientId: body.client_id,
      domains: body.domains,
      enforced: body.enforced,
      groupsClaim: body.groups_claim,
      groupRoles: body.group_roles as unknown as Prisma.InputJsonArray,
      defaultRole: body.default_role,
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
            domains: data.domains,
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
