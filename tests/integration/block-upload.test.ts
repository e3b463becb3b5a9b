/**
 * Uploads in block form (BLOCK_UPLOAD_TYPE): the client splits the report into blocks, the
 * gateway checks what its target lacks. Such an upload must store exactly what the same report
 * sent as JSON stores, and anything that does not add up must be refused with a 400 that says
 * why, storing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import type { INestApplication } from '@nestjs/common';
import {
  BLOCK_UPLOAD_TYPE,
  type MemoryReport,
  type ReportSymbol,
  type UploadEnvelope,
} from '@memtrail/contracts';
import {
  createPrismaClient,
  createSqlPool,
  readVersion,
  type PrismaClient,
  type SqlPool,
} from '@memtrail/db';
import {
  blockHash,
  decodeBlock,
  decodeBlockUpload,
  decodeRecord,
  encodeBlock,
  encodeBlockUpload,
  encodeRecord,
  writeBlockUpload,
  type BlockUpload,
  type VersionRecord,
} from '@memtrail/symbol-blocks';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import { startGateway } from './support/cli-and-gateway.js';

const sha = (n: number) => n.toString(16).padStart(40, '0');

/**
 * A build of `count` functions, variables and zero-filled data over three sections and two
 * regions, with names several files share (static functions) and a linker symbol at the address
 * of the first zero-filled variable; `grown` functions are 16 bytes larger, moving later code.
 */
function firmware(count: number, grown: number[] = []): MemoryReport {
  const symbols: ReportSymbol[] = [];
  let text = 0x0800_0000;
  for (let i = 0; i < count; i++) {
    const size = 8 + ((i * 7) % 120) + (grown.includes(i) ? 16 : 0);
    const file = `src/module_${i % 23}.c`;
    symbols.push({
      name: i % 50 === 7 ? 'init' : `fn_${i}`,
      address: text,
      size,
      type: 'FUNC',
      binding: i % 50 === 7 ? 'LOCAL' : 'GLOBAL',
      section: '.text',
      source_file: file,
      source_line: 10 + (i % 300),
      visibility: 'DEFAULT',
      archive: i % 3 === 0 ? 'libcore.a' : '',
      object_file: `module_${i % 23}.o`,
      ...(i % 40 === 0 ? { full_name: `ns::fn_${i}(int)` } : {}),
    } as ReportSymbol);
    text += size;
  }
  let data = 0x2000_0000;
  for (let i = 0; i < count / 10; i++) {
    symbols.push({
      name: `var_${i}`,
      address: data,
      size: 4 * (1 + (i % 5)),
      type: 'OBJECT',
      binding: 'GLOBAL',
      section: i % 2 === 0 ? '.data' : '.bss',
      source_file: `src/module_${i % 23}.c`,
      source_line: i,
      visibility: 'DEFAULT',
      archive: '',
      object_file: `module_${i % 23}.o`,
    });
    data += 4 * (1 + (i % 5));
  }
  const firstBss = symbols.find((s) => s.section === '.bss')!;
  symbols.push({ ...firstBss, name: '_edata', size: 0, type: 'NOTYPE', section: '.data' });
  const used = text - 0x0800_0000;
  const ram = data - 0x2000_0000;
  return {
    file_path: 'build/fw.elf',
    architecture: 'ARM',
    entry_point: 0x0800_0000,
    file_type: 'EXEC',
    machine: 'ARM',
    symbols,
    program_headers: [],
    memory_layout: {
      FLASH: {
        address: 0x0800_0000,
        limit_size: 0x10_0000,
        used_size: used,
        free_size: 0x10_0000 - used,
        type: 'UNKNOWN',
        sections: [{ name: '.text', address: 0x0800_0000, size: used, type: 'code' }],
      },
      RAM: {
        address: 0x2000_0000,
        limit_size: 0x2_0000,
        used_size: ram,
        free_size: 0x2_0000 - ram,
        type: 'UNKNOWN',
        sections: [{ name: '.data', address: 0x2000_0000, size: ram, type: 'data' }],
      },
    },
  } as unknown as MemoryReport;
}

function envelope(target: string, commit: number, parent: number | null, report: MemoryReport) {
  return {
    metadata: {
      git: {
        commit_hash: sha(commit),
        base_commit_hash: parent === null ? null : sha(parent),
        branch_name: 'main',
        commit_timestamp: new Date(Date.UTC(2026, 10, 1) + commit * 60_000).toISOString(),
      },
      target_name: target,
      analysis_version: 'test',
    },
    memory_analysis: report,
  } as UploadEnvelope;
}

describe('uploads in block form', () => {
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let sql: SqlPool;
  let gateway: INestApplication;
  let baseUrl: string;
  let apiKey: string;
  let replica: INestApplication | undefined;
  /** A second gateway on the same stores, started when first needed. */
  const replicaUrl = async () => (replica ??= await startGateway(stores)).getUrl();

  beforeAll(async () => {
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    sql = createSqlPool(stores.databaseUrl);
    const owner = await prisma.user.create({ data: { email: 'owner@example.com' } });
    ({ apiKey } = await createProjectWithKey(prisma, owner.id, 'Blocks'));
    gateway = await startGateway(stores);
    baseUrl = await gateway.getUrl();
  });

  afterAll(async () => {
    await replica?.close();
    await gateway?.close();
    await sql?.end();
    await prisma?.$disconnect();
    await stores?.cleanup();
  });

  async function post(body: Buffer, contentType = BLOCK_UPLOAD_TYPE, url = baseUrl) {
    const response = await fetch(`${url}/upload`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${apiKey}`,
        'Content-Type': contentType,
        'Content-Encoding': 'gzip',
      },
      body: gzipSync(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { data: Record<string, unknown>; error: string },
    };
  }
  const asJson = (e: UploadEnvelope) => post(Buffer.from(JSON.stringify(e)), 'application/json');

  /** What Postgres holds of a target's report for a commit: totals, version and blocks. */
  async function stored(target: string, commit: number) {
    const report = await prisma.report.findFirstOrThrow({
      where: { target: { name: target }, commit: { sha: sha(commit) } },
    });
    const version = (await readVersion(sql, report.id, report.version))!;
    const { rows } = await sql.query<{ hash: Buffer; data: Buffer; symbol_count: number }>(
      'SELECT hash, data, symbol_count FROM symbol_blocks WHERE target_id = $1 ORDER BY hash',
      [report.targetId],
    );
    return {
      totals: [report.symbolCount, report.regionTotals, report.sectionTotals, report.kind],
      header: { ...version.header, metadata: { ...version.header.metadata, target_name: '' } },
      record: version.record,
      blocks: rows.map((r) => [r.hash.toString('hex'), gunzipSync(r.data), r.symbol_count]),
    };
  }

  const reportCount = () => prisma.report.count();
  const parts = (e: UploadEnvelope): BlockUpload => decodeBlockUpload(encodeBlockUpload(e));
  const withRecord = (p: BlockUpload, change: (r: VersionRecord) => void): Buffer => {
    const record = decodeRecord(p.record);
    change(record);
    return writeBlockUpload({ ...p, record: encodeRecord(record) });
  };
  /** The upload with block `i` replaced by other bytes, under their own hash everywhere. */
  const withBlockBytes = (p: BlockUpload, i: number, data: Buffer): Buffer => {
    const old = Buffer.from(p.blocks[i]!.hash).toString('hex');
    const hash = blockHash(data);
    const blocks = p.blocks.map((b, k) => (k === i ? { hash: Buffer.from(hash, 'hex'), data } : b));
    return withRecord({ ...p, blocks }, (r) => {
      for (const e of r.entries) if (e.hash === old) e.hash = hash;
    });
  };

  it('stores a report sent in block form as it stores the same report sent as JSON', async () => {
    const parent = firmware(3000);
    const child = firmware(3000, [1200, 1201]);
    for (const [commit, base, report] of [
      [1, null, parent],
      [2, 1, child],
    ] as const) {
      const json = await asJson(envelope('json-twin', commit, base, report));
      const blocks = await post(encodeBlockUpload(envelope('block-twin', commit, base, report)));
      expect([json.status, blocks.status]).toEqual([200, 200]);
      const { report_id: _a, target_name: _b, comparison_url: _c, ...answer } = blocks.body.data;
      expect(json.body.data).toMatchObject(answer);
      expect(await stored('block-twin', commit)).toEqual(await stored('json-twin', commit));
    }
    // The child stored only the blocks its change touched.
    const twin = await stored('block-twin', 2);
    expect(twin.blocks.length).toBeLessThan(twin.record!.entries.length + 10);
    expect(twin.record!.symbolCount).toBe(child.symbols.length);
    // Names several blocks share, and symbols of two entries at one address, went through.
    expect(twin.record!.duplicates.get('init')!.length).toBeGreaterThan(1);
    expect(twin.record!.ties.length).toBeGreaterThan(0);
  });

  it('takes an upload that leaves out blocks its target holds', async () => {
    await asJson(envelope('lean', 1, null, firmware(2000)));
    const child = envelope('lean', 2, 1, firmware(2000, [500]));
    const held = new Set((await stored('lean', 1)).blocks.map(([hash]) => hash as string));
    const full = parts(child);
    const lean = {
      ...full,
      blocks: full.blocks.filter((b) => !held.has(Buffer.from(b.hash).toString('hex'))),
    };
    expect(lean.blocks.length).toBeLessThan(full.blocks.length / 10);
    expect((await post(writeBlockUpload(lean))).status).toBe(200);
    await asJson(envelope('lean-twin', 1, null, firmware(2000)));
    await asJson({ ...child, metadata: { ...child.metadata, target_name: 'lean-twin' } });
    expect(await stored('lean', 2)).toEqual(await stored('lean-twin', 2));
  });

  // A gateway knows the blocks of the versions it stored itself; a parent another replica
  // stored is read from Postgres. Either way a child stores what its JSON twin stores.
  describe.each([
    ['stored by this gateway', () => Promise.resolve(baseUrl)],
    ['stored by another gateway', () => replicaUrl()],
  ])('a child of a parent %s', (name, parentUrl) => {
    const target = (suffix: string) => `${name.split(' ').pop()}-${suffix}`;
    const leanParts = (p: BlockUpload, held: Set<string>): BlockUpload => ({
      ...p,
      blocks: p.blocks.filter((b) => !held.has(Buffer.from(b.hash).toString('hex'))),
    });
    const heldBy = async (t: string, commit: number) =>
      new Set((await stored(t, commit)).blocks.map(([hash]) => hash as string));

    it('is stored as its JSON twin, sent whole or without the blocks its target holds', async () => {
      const builds = [firmware(1500), firmware(1500, [300]), firmware(1500)];
      for (const t of [target('whole'), target('lean'), target('twin')]) {
        await post(
          Buffer.from(JSON.stringify(envelope(t, 1, null, builds[0]!))),
          'application/json',
          await parentUrl(),
        );
        await post(
          Buffer.from(JSON.stringify(envelope(t, 2, 1, builds[1]!))),
          'application/json',
          await parentUrl(),
        );
      }
      // Commit 3 undoes commit 2: its changed block is held from commit 1, not by its parent.
      const child = envelope(target('whole'), 3, 2, builds[2]!);
      expect((await post(encodeBlockUpload(child))).status).toBe(200);
      const held = await heldBy(target('lean'), 2);
      const lean = leanParts(
        parts({ ...child, metadata: { ...child.metadata, target_name: target('lean') } }),
        held,
      );
      expect(lean.blocks).toEqual([]);
      expect((await post(writeBlockUpload(lean))).status).toBe(200);
      await asJson({ ...child, metadata: { ...child.metadata, target_name: target('twin') } });
      const twin = await stored(target('twin'), 3);
      expect(await stored(target('whole'), 3)).toEqual(twin);
      expect(await stored(target('lean'), 3)).toEqual(twin);
    });

    it('is refused when it does not add up with the blocks its parent placed', async () => {
      const t = target('refused');
      await post(
        Buffer.from(JSON.stringify(envelope(t, 1, null, firmware(600)))),
        'application/json',
        await parentUrl(),
      );
      const child = parts(envelope(t, 2, 1, firmware(600, [100])));
      const held = await heldBy(t, 1);
      const unchanged = decodeRecord(child.record).entries.findIndex((e) => held.has(e.hash));
      const cases: [Buffer, string][] = [
        [
          withRecord(child, (r) => (r.symbolCount -= 1)),
          `its blocks hold ${firmware(600).symbols.length}`,
        ],
        [
          withRecord(child, (r) => r.ties.push([[unchanged, 9999]])),
          `names entry ${unchanged}, symbol 9999, which does not exist`,
        ],
        [
          writeBlockUpload(
            leanParts(
              child,
              new Set([...held, ...child.blocks.map((b) => Buffer.from(b.hash).toString('hex'))]),
            ),
          ),
          'was neither sent nor stored before',
        ],
      ];
      const before = await reportCount();
      for (const [body, message] of cases) {
        const { status, body: answer } = await post(body);
        expect({ status, error: answer.error }).toEqual({
          status: 400,
          error: expect.stringContaining(message),
        });
      }
      expect(await reportCount()).toBe(before);
    });
  });

  describe('refuses with a 400 that says why, storing nothing', () => {
    const report = firmware(400);
    const fresh = (n: number) => parts(envelope(`refused-${n}`, 1, null, report));
    const symbolBlock = (p: BlockUpload) => {
      const i = p.blocks.findIndex((b) => decodeBlock(b.data).symbols.length > 2);
      return { i, block: decodeBlock(p.blocks[i]!.data) };
    };

    const cases: [string, () => Buffer, string][] = [
      [
        'a block whose bytes do not match its hash',
        () => {
          const p = fresh(1);
          const data = Buffer.from(p.blocks[0]!.data);
          data[data.length - 3] = data[data.length - 3] === 0x31 ? 0x32 : 0x31;
          p.blocks[0] = { ...p.blocks[0]!, data };
          return writeBlockUpload(p);
        },
        'does not match its hash',
      ],
      [
        'a block the target lacks left out',
        () => {
          const p = fresh(2);
          return writeBlockUpload({ ...p, blocks: p.blocks.slice(1) });
        },
        'was neither sent nor stored before',
      ],
      [
        'a record whose symbol count is not its blocks',
        () => withRecord(fresh(3), (r) => (r.symbolCount += 1)),
        `the record counts ${report.symbols.length + 1} symbols, its blocks hold ${report.symbols.length}`,
      ],
      [
        'a run of symbols at one address naming a symbol no block has',
        () =>
          withRecord(fresh(4), (r) =>
            r.ties.push([
              [0, 9999],
              [1, 0],
            ]),
          ),
        'names entry 0, symbol 9999, which does not exist',
      ],
      [
        'duplicate names pointing past the entries',
        () => withRecord(fresh(5), (r) => r.duplicates.set('fn_1', [0, 99_999])),
        'lists entries out of order or range',
      ],
      [
        'a block not in canonical form',
        () => {
          const p = fresh(6);
          const { i, block } = symbolBlock(p);
          const spaced = Buffer.from(
            JSON.stringify(JSON.parse(encodeBlock(block).toString()), null, 1),
          );
          return withBlockBytes(p, i, spaced);
        },
        'is not in canonical form',
      ],
      [
        'a block holding a symbol no upload could hold',
        () => {
          const p = fresh(7);
          const { i, block } = symbolBlock(p);
          block.symbols[1]!.size = -4;
          return withBlockBytes(p, i, encodeBlock(block));
        },
        'size must be a non-negative integer',
      ],
      [
        'symbols in the header',
        () => {
          const p = fresh(8);
          const header = p.header as UploadEnvelope;
          header.memory_analysis.symbols = report.symbols.slice(0, 1);
          return writeBlockUpload(p);
        },
        'the header lists symbols',
      ],
      [
        'an identical build',
        () => {
          const p = fresh(9);
          (p.header as UploadEnvelope).metadata.identical = true;
          (p.header as UploadEnvelope).metadata.git.base_commit_hash = sha(7);
          return writeBlockUpload(p);
        },
        'identical and failed builds have no blocks: send them as JSON',
      ],
      [
        'a record that inflates beyond any real one',
        () => writeBlockUpload({ ...fresh(13), record: deflateRawSync(Buffer.alloc(32 << 20)) }),
        'the record cannot be read',
      ],
      [
        'a body cut short',
        () => {
          const body = writeBlockUpload(fresh(10));
          return body.subarray(0, body.length - 5);
        },
        'body ends inside a part',
      ],
      [
        'a body of another form',
        () => Buffer.from(JSON.stringify(envelope('refused-11', 1, null, report))),
        'body is not in block form',
      ],
      [
        'a bad commit in the header, as a JSON upload would be',
        () => {
          const p = fresh(12);
          (p.header as UploadEnvelope).metadata.git.commit_hash = 'not-a-sha';
          return writeBlockUpload(p);
        },
        'metadata.git.commit_hash must be a hexadecimal commit SHA',
      ],
    ];

    it.each(cases)('%s', async (_, body, message) => {
      const before = await reportCount();
      const { status, body: answer } = await post(body());
      expect({ status, error: answer.error }).toEqual({
        status: 400,
        error: expect.stringContaining(message),
      });
      expect(await reportCount()).toBe(before);
    });
  });
});
