import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { createClickHouse, type ClickHouseClient } from '@memtrail/clickhouse';
import type { ProjectWithApiKey } from '@memtrail/contracts';
import { createSqlPool, type SqlPool } from '@memtrail/db';
import { createIsolatedStores, eventually, type IsolatedStores } from '@memtrail/testing';
import {
  call,
  signUpOnPrem,
  startGateway,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import {
  envelope,
  evolve,
  initialFirmware,
  shaOf,
  toReport,
} from '../../services/query/bench/synthetic-firmware.js';
import { startIngestWorker } from './support/read-services.js';
import { seededRandom } from '@memtrail/testing/random';

type Body<T> = { data: T };

/**
 * Deleting a project removes every byte of it: each Postgres table is searched for any id the
 * project had (its own, its targets', commits', reports', keys'), and ClickHouse for its rows.
 * Another project holding the very same firmware keeps all of its blocks.
 */
describe('deleting a project', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let worker: INestApplicationContext;
  let sql: SqlPool;
  let clickhouse: ClickHouseClient;
  let token: string;

  const createProject = async (name: string) =>
    (
      await call<Body<{ project: ProjectWithApiKey }>>(gw.url, 'POST', '/api/projects', {
        token,
        body: { name, description: '' },
      })
    ).body.data.project;

  /** The same history of two targets, three commits each. */
  const uploadHistory = async (project: ProjectWithApiKey) => {
    for (const target of ['board-a', 'board-b']) {
      const rnd = seededRandom(3);
      let id = 50_000;
      let firmware = initialFirmware(600, 9);
      for (let i = 1; i <= 3; i++) {
        if (i > 1)
          firmware = evolve(
            firmware,
            { grow: 2, shrink: 1, add: 1, remove: 1, rename: 0, move: 0 },
            rnd,
            () => id++,
          );
        const spec = {
          sha: shaOf('deletion', i),
          parent: i === 1 ? null : shaOf('deletion', i - 1),
          branch: 'main',
          target,
          time: new Date(Date.UTC(2026, 0, i)),
          message: `commit ${i}`,
          kind: 'full' as const,
        };
        const res = await call(gw.url, 'POST', '/upload', {
          body: envelope(spec, toReport(firmware)),
          headers: { authorization: `Bearer ${project.api_key}` },
        });
        expect(res.status).toBe(200);
      }
    }
  };

  const clickhouseRows = async (projectId: string) => {
    const result = await clickhouse.query({
      query: 'SELECT toUInt64(count()) AS n FROM symbol_blocks_v2 WHERE project_id = {p:String}',
      query_params: { p: projectId },
      format: 'JSONEachRow',
    });
    return Number((await result.json<{ n: string }>())[0]!.n);
  };

  beforeAll(async () => {
    stores = await createIsolatedStores();
    worker = await startIngestWorker(stores, {
      WORKER_COPY_AGE_MS: '0',
      WORKER_COPY_INTERVAL_MS: '100',
    });
    // Above one report, a project's rows are deleted by the background job.
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      PROJECT_DELETE_SYNC_MAX_REPORTS: '1',
    });
    sql = createSqlPool(stores.databaseUrl);
    clickhouse = createClickHouse({
      url: stores.clickhouseUrl,
      database: stores.clickhouseDatabase,
    });
    token = (await signUpOnPrem(gw.url, 'owner@example.com')).access_token;
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    await worker?.close();
    await sql?.end();
    await clickhouse?.close();
    await stores?.cleanup();
  });

  it('leaves no row naming it in any Postgres table and no row of it in ClickHouse', async () => {
    const doomed = await createProject('Doomed');
    const kept = await createProject('Kept');
    await uploadHistory(doomed);
    await uploadHistory(kept);
    await eventually(
      () =>
        gw.prisma.symbolBlock
          .count({ where: { inClickhouse: false } })
          .then(
            async (waiting) =>
              waiting + (await gw.prisma.report.count({ where: { status: { not: 'ingested' } } })),
          ),
      (n) => n === 0,
      { timeoutMs: 180_000 },
    );
    const keptBlocks = await gw.prisma.symbolBlock.count({
      where: { target: { projectId: kept.id } },
    });
    const keptRows = await clickhouseRows(kept.id);
    expect(await clickhouseRows(doomed.id)).toBe(keptRows);

    // Every id the project had.
    const { rows } = await sql.query<{ id: string }>(
      `SELECT $1::uuid AS id
       UNION SELECT id FROM targets WHERE project_id = $1
       UNION SELECT id FROM commits WHERE project_id = $1
       UNION SELECT r.id FROM reports r JOIN targets t ON t.id = r.target_id WHERE t.project_id = $1
       UNION SELECT id FROM api_keys WHERE project_id = $1`,
      [doomed.id],
    );
    const ids = rows.map((r) => r.id);
    expect(ids.length).toBeGreaterThan(10);

    const deleted = await call<Body<{ background: boolean }>>(
      gw.url,
      'DELETE',
      `/api/projects/${doomed.id}`,
      { token },
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.background).toBe(true);
    await eventually(
      async () =>
        (await gw.prisma.project.count({ where: { id: doomed.id } })) +
        (await clickhouseRows(doomed.id)),
      (left) => left === 0,
      { timeoutMs: 180_000 },
    );

    // Every uuid column of every table. The organisation's audit log keeps its record of the
    // deletion (who deleted which project, when): that is the organisation's, not the project's.
    const { rows: columns } = await sql.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type = 'uuid' AND table_name <> 'audit_events'`,
    );
    expect(columns.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const { table_name, column_name } of columns) {
      const { rows: hits } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table_name}" WHERE "${column_name}" = ANY($1::uuid[])`,
        [ids],
      );
      if (hits[0]!.n > 0) found.push(`${table_name}.${column_name}: ${hits[0]!.n}`);
    }
    expect(found).toEqual([]);

    // The other project, with the very same blocks, keeps every one of them.
    expect(await gw.prisma.symbolBlock.count({ where: { target: { projectId: kept.id } } })).toBe(
      keptBlocks,
    );
    expect(await clickhouseRows(kept.id)).toBe(keptRows);
  }, 600_000);
});
