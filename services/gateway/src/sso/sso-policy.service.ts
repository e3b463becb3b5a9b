import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { normalizeEmail } from '@memtrail/contracts';
import { PrismaClient, type SsoConnection } from '@memtrail/db';

export function emailDomain(email: string): string {
  return normalizeEmail(email).split('@').pop() ?? '';
}

/** Which organisation's SSO signs in an address, and whether it must. */
@Injectable()
export class SsoPolicy {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async connectionFor(email: string): Promise<SsoConnection | null> {
    const domain = emailDomain(email);
    if (!domain) return null;
    return this.prisma.ssoConnection.findFirst({ where: { domains: { has: domain } } });
  }

  /** True when the address's domain belongs to an organisation that requires SSO. */
  async enforcedFor(email: string): Promise<boolean> {
    return (await this.connectionFor(email))?.enforced ?? false;
  }
}

@Global()
@Module({ providers: [SsoPolicy], exports: [SsoPolicy] })
export class SsoPolicyModule {}
