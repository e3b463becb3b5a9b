import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import type { UploadEnvelope } from '@memtrail/contracts';
import { buildVersion, storedForm, type VersionRecord } from '@memtrail/symbol-blocks';
import {
  createSqlPool,
  migrateDeploy,
  MAX_RECORD_DEPTH,
  readBlocks,
  readRecord,
  readStoredEnvelope,
  readStoredPayload,
  readVersion,
  storableRecord,
  type SqlPool,
} from '../src/index.js';
import { createTempDatabase, type TempDatabase } from './database.js';

describe('readStoredPayload', () => {
  it('reads back an envelope larger than one output chunk', async () => {
    const symbols = Array.from({ length: 30_000 }, (_, i) => ({
      name: `fn_${i}`,
      address: 0x0800_0000 + i * 4,
      size: i % 300,
    }));
    const envelope = {
      metadata: { target_name: 'board', git: { commit_hash: 'abcd' } },
      memory_analysis: { memory_layout: {}, symbols },
    };
    const text = JSON.stringify(envelope);
    expect(text.length).toBeGreaterThan(1 << 20);
    await expect(readStoredPayload(gzipSync(text, { level: 1 }))).resolves.toEqual(envelope);
  });

  it('rejects bytes that are not gzip-compressed JSON', async () => {
    await expect(readStoredPayload(Buffer.from('{"metadata": {}}'))).rejects.toThrow();
    await expect(readStoredPayload(gzipSync('{"metadata": '))).rejects.toThrow(SyntaxError);
  });
});

describe('stored report versions and blocks', () => {
  let database: TempDatabase;
  let sql: SqlPool;
  let targetId: string;
  let reportId: string;

  const envelope: UploadEnvelope = {
    metadata: { target_name: 'board', git: { commit_hash: 'abcd' } },
    memory_analysis: {
      file_path: 'fw.elf',
      architecture: 'ARM',
      entry_point: 0,
      file_type: 'ET_EXEC',
      machine: 'EM_ARM',
      program_headers: [],
      memory_layout: {
        FLASH: {
          address: 0x0800_0000,
          limit_size: 1 << 20,
          type: 'UNKNOWN',
          used_size: 4000,
          free_size: (1 << 20) - 4000,
          utilization_percent: 0.4,
          sections: [
            {
              name: '.text',
              address: 0x0800_0000,
              size: 4000,
              type: 'code',
              end_address: 0x0800_0fa0,
            },
          ],
        },
      },
      symbols: Array.from({ length: 500 }, (_, i) => ({
        name: `fn_${i}`,
        address: 0x0800_0001 + i * 8,
        size: 8,
        type: 'FUNC',
        binding: 'GLOBAL',
        section: '.text',
        source_file: `src/f${i % 7}.c`,
        source_line: i,
        visibility: 'DEFAULT',
        archive: '',
        object_file: `f${i % 7}.o`,
      })),
    },
  };

  beforeAll(async () => {
    database = await createTempDatabase();
    await migrateDeploy(database.url, { log: () => undefined });
    sql = createSqlPool(database.url);
    const { rows } = await sql.query<{ target: string; report: string }>(
      `WITH u AS (INSERT INTO users (email) VALUES ('o@example.com') RETURNING id),
            o AS (INSERT INTO organizations (name) VALUES ('O') RETURNING id),
            p AS (INSERT INTO projects (name, owner_id, organization_id)
                  SELECT 'P', u.id, o.id FROM u, o RETURNING id),
            t AS (INSERT INTO targets (project_id, name) SELECT id, 'board' FROM p RETURNING id, project_id),
            c AS (INSERT INTO commits (project_id, sha) SELECT project_id, 'abcd' FROM t RETURNING id),
            r AS (INSERT INTO reports (target_id, commit_id, kind, payload_sha256)
                  SELECT t.id, c.id, 'full', 'x' FROM t, c RETURNING id)
       SELECT (SELECT id::text FROM t) AS target, (SELECT id::text FROM r) AS report`,
    );
    targetId = rows[0]!.target;
    reportId = rows[0]!.report;
    const form = storedForm(envelope, 'full');
    await sql.query(
      `INSERT INTO report_versions (report_id, version, target_id, header, record) VALUES ($1, 1, $2, $3, $4)`,
      [reportId, targetId, form.header, form.record],
    );
    for (const b of form.blocks) {
      await sql.query(
        `INSERT INTO symbol_blocks (target_id, hash, data, symbol_count) VALUES ($1, $2, $3, $4)`,
        [targetId, Buffer.from(b.hash, 'hex'), gzipSync(b.canonical), b.symbolCount],
      );
    }
  });

  afterAll(async () => {
    await sql?.end();
    await database?.drop();
  });

  it('rebuilds the whole envelope of a version from its header, record and blocks', async () => {
    const version = await readVersion(sql, reportId, 1);
    expect(version).toMatchObject({ reportId, version: 1, targetId, base: null });
    expect(version!.header.memory_analysis.symbols).toEqual([]);
    expect(await readStoredEnvelope(sql, version!)).toEqual(envelope);
  });

  it('rebuilds records written as changes to their parent, writing a whole one now and then', async () => {
    // Versions 2…21 of the report, each growing one symbol of the one before.
    let parent = { reportId, version: 1, ...(await readRecord(sql, reportId, 1))! };
    const expected: VersionRecord[] = [];
    for (let version = 2; version <= 21; version++) {
      const symbols = envelope.memory_analysis.symbols.map((s, i) =>
        i === version * 7 ? { ...s, size: s.size + 4 } : s,
      );
      const record = buildVersion({ ...envelope.memory_analysis, symbols }).record;
      const stored = storableRecord(record, parent);
      await sql.query(
        `INSERT INTO report_versions (report_id, version, target_id, header, record,
           record_base_report_id, record_base_version, record_depth)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          reportId,
          version,
          targetId,
          storedForm(envelope, 'full').header,
          stored.record,
          stored.base?.reportId,
          stored.base?.version,
          stored.depth,
        ],
      );
      expected.push(record);
      parent = { reportId, version, record, depth: stored.depth };
    }
    const depths = [];
    for (let version = 2; version <= 21; version++) {
      const read = await readVersion(sql, reportId, version);
      expect(read!.record).toEqual(expected[version - 2]);
      depths.push(read!.recordDepth);
    }
    expect(Math.max(...depths)).toBe(MAX_RECORD_DEPTH);
    expect(depths).toContain(0);
  });

  it('answers null for a version that is not stored', async () => {
    expect(await readVersion(sql, reportId, 99)).toBeNull();
  });

  it('names a block that is missing instead of rebuilding a report without it', async () => {
    await expect(readBlocks(sql, targetId, ['00'.repeat(16)])).rejects.toThrow(
      `target ${targetId} lacks 1 stored symbol block(s), e.g. ${'00'.repeat(16)}`,
    );
  });
});
