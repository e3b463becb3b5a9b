import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { INestApplicationContext } from '@nestjs/common';
import { createPrismaClient, type PrismaClient } from '@memtrail/db';
import { createIsolatedStores, eventually, type IsolatedStores } from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import {
  call,
  startGateway,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { startIngestWorker } from './support/read-services.js';

const ADMIN_TOKEN = 'operator-secret-token';

describe('admin: ingestion dead letters', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let worker: INestApplicationContext | undefined;
  let startWorker: () => Promise<void>;
  let prisma: PrismaClient;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    gw = await startGateway(stores, { ADMIN_TOKEN });
    prisma = createPrismaClient(stores.databaseUrl);
    startWorker = async () => {
      worker = await startIngestWorker(stores);
    };
  });

  afterAll(async () => {
    await worker?.close();
    await gw?.close();
    await prisma?.$disconnect();
    await stores?.cleanup();
  });

  it('lists jobs that failed for good and retries one after the cause is fixed', async () => {
    const owner = await prisma.user.create({ data: { email: 'ops@example.com' } });
    const { apiKey } = await createProjectWithKey(prisma, owner.id, 'Ops');
    const sample = JSON.parse(
      readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
    );
    const upload = await call<{ data: { report_id: string } }>(gw.url, 'POST', '/upload', {
      headers: { authorization: `Bearer ${apiKey}` },
      body: {
        metadata: { git: { commit_hash: 'ab'.repeat(20) }, target_name: 'stm32' },
        memory_analysis: sample,
      },
    });
    const reportId = upload.body.data.report_id;
    // Simulate a stored version damaged at rest before any worker reads it: the job fails for
    // good.
    const key = { reportId_version: { reportId, version: 1 } };
    const good = (await prisma.reportVersion.findUniqueOrThrow({ where: key })).record;
    await prisma.reportVersion.update({
      where: key,
      data: { record: Buffer.from('damaged') as Uint8Array<ArrayBuffer> },
    });
    await startWorker();
    await eventually(
      async () => (await prisma.report.findUniqueOrThrow({ where: { id: reportId } })).status,
      (s) => s === 'failed',
    );

    expect((await call(gw.url, 'GET', '/api/admin/ingest/failed')).status).toBe(401);
    expect((await call(gw.url, 'GET', '/api/admin/ingest/failed', { token: 'wrong' })).status).toBe(
      401,
    );
    const failed = await call<{
      data: { total: number; jobs: { job_id: string; report_id: string; reason: string }[] };
    }>(gw.url, 'GET', '/api/admin/ingest/failed', { token: ADMIN_TOKEN });
    expect(failed.body.data.total).toBe(1);
    expect(failed.body.data.jobs[0]).toMatchObject({
      report_id: reportId,
      reason: expect.stringContaining('unreadable'),
    });

    await prisma.reportVersion.update({ where: key, data: { record: good } });
    const retried = await call(
      gw.url,
      'POST',
      `/api/admin/ingest/failed/${failed.body.data.jobs[0]!.job_id}/retry`,
      {
        token: ADMIN_TOKEN,
      },
    );
    expect(retried.status).toBe(202);
    await eventually(
      async () => (await prisma.report.findUniqueOrThrow({ where: { id: reportId } })).status,
      (s) => s === 'ingested',
    );
    expect(
      (await call(gw.url, 'POST', '/api/admin/ingest/failed/nope/retry', { token: ADMIN_TOKEN }))
        .status,
    ).toBe(404);
  });
});
