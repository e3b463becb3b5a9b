import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, UseGuards, type INestApplication } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { createPrismaClient, createSqlPool, PrismaClient, SqlPool } from '@memtrail/db';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import {
  ApiKeyGuard,
  ApiKeyProject,
  ApiKeyService,
  createProjectWithKey,
  generateApiKey,
  hashApiKeySecret,
  parseApiKey,
  verifyApiKeySecret,
  type ApiKeyPrincipal,
} from '../src/api-keys/index.js';
import { AuditService } from '../src/audit/audit.service.js';
import { KeyManagementService } from '../src/api-keys/key-management.service.js';
import { EnvelopeExceptionFilter } from '../src/http/envelope-exception.filter.js';

describe('API key format', () => {
  it('round-trips a generated key and rejects other shapes', () => {
    const generated = generateApiKey();
    expect(parseApiKey(generated.key)).toEqual({
      publicId: generated.publicId,
      secret: generated.secret,
    });
    expect(parseApiKey(`${generated.key}x`)).toBeNull();
    expect(parseApiKey(generated.key.replace('mt_', 'mk_'))).toBeNull();
    expect(parseApiKey('')).toBeNull();
  });

  it('salts hashes and accepts only the matching secret', () => {
    const { secret } = generateApiKey();
    const a = hashApiKeySecret(secret);
    expect(a).not.toEqual(hashApiKeySecret(secret));
    expect(verifyApiKeySecret(secret, a)).toBe(true);
    expect(verifyApiKeySecret(`${secret.slice(0, -1)}A`, a)).toBe(secret.endsWith('A'));
    expect(verifyApiKeySecret(secret, 'md5$x$y')).toBe(false);
  });
});

@Controller()
class WhoAmIController {
  @Get('whoami')
  @UseGuards(ApiKeyGuard)
  whoami(@ApiKeyProject() key: ApiKeyPrincipal): ApiKeyPrincipal {
    return key;
  }
}

describe('ApiKeyService and ApiKeyGuard against Postgres', () => {
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let sql: SqlPool;
  let app: INestApplication;
  let baseUrl: string;
  let ownerId: string;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    sql = createSqlPool(stores.databaseUrl);
    @Module({
      controllers: [WhoAmIController],
      providers: [
        { provide: PrismaClient, useValue: prisma },
        { provide: SqlPool, useValue: sql },
        AuditService,
        ApiKeyService,
        ApiKeyGuard,
        KeyManagementService,
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
      ],
    })
    class TestModule {}
    app = await NestFactory.create(TestModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    baseUrl = await app.getUrl();
    ownerId = (await prisma.user.create({ data: { email: 'owner@example.com' } })).id;
  });

  afterAll(async () => {
    await app?.close();
    await prisma?.$disconnect();
    await sql?.end();
    await stores?.cleanup();
  });

  const whoami = (authorization?: string) =>
    fetch(`${baseUrl}/whoami`, { headers: authorization ? { authorization } : {} });

  it('verifies a key to its project and nothing else', async () => {
    const service = app.get(ApiKeyService);
    const a = await createProjectWithKey(prisma, ownerId, 'Alpha');
    const b = await createProjectWithKey(prisma, ownerId, 'Beta');
    expect(await service.verify(a.apiKey)).toMatchObject({
      projectId: a.projectId,
      apiKeyId: a.apiKeyId,
      name: 'Default',
      scope: 'upload',
      organizationToken: false,
    });
    expect(await service.verify(b.apiKey)).toMatchObject({
      projectId: b.projectId,
      apiKeyId: b.apiKeyId,
    });
    // Right public id, wrong secret: the other project's secret must not open it.
    const swapped = `${a.apiKey.slice(0, 20)}${b.apiKey.slice(20)}`;
    expect(await service.verify(swapped)).toBeNull();
    expect(await service.verify(generateApiKey().key)).toBeNull();
    expect(await service.verify('not a key')).toBeNull();
  });

  it('stops accepting the old key as soon as it is regenerated, and says so', async () => {
    const service = app.get(ApiKeyService);
    const project = await createProjectWithKey(prisma, ownerId, 'Gamma');
    const fresh = await app.get(KeyManagementService).regenerate(project.projectId, ownerId);
    expect(await service.verify(project.apiKey)).toBeNull();
    expect(await service.verify(fresh.api_key)).toMatchObject({ projectId: project.projectId });
    expect(await service.masked(project.projectId)).toBe(fresh.api_key_masked);
    expect(fresh.api_key_masked).not.toContain(fresh.api_key.slice(20));
    expect(fresh.revoked).toEqual(['Default']);
    expect(fresh.warning).toMatch(/every CI pipeline still using them fails to upload/);
  });

  it('refuses expired and revoked keys', async () => {
    const service = app.get(ApiKeyService);
    const project = await createProjectWithKey(prisma, ownerId, 'Epsilon');
    await prisma.apiKey.update({
      where: { id: project.apiKeyId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await service.verify(project.apiKey)).toBeNull();
    await prisma.apiKey.update({
      where: { id: project.apiKeyId },
      data: { expiresAt: null, revokedAt: new Date() },
    });
    expect(await service.verify(project.apiKey)).toBeNull();
  });

  it('guards routes: 401 in the envelope without a valid key, the principal with one', async () => {
    const project = await createProjectWithKey(prisma, ownerId, 'Delta');
    const ok = await whoami(`Bearer ${project.apiKey}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      projectId: project.projectId,
      apiKeyId: project.apiKeyId,
    });

    for (const header of [undefined, 'Basic abc', `Bearer ${generateApiKey().key}`]) {
      const denied = await whoami(header);
      expect(denied.status).toBe(401);
      expect(await denied.json()).toMatchObject({
        status: 'error',
        type: 'UnauthorizedError',
        data: null,
      });
    }
  });
});
