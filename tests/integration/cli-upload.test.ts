/**
 * The released path end to end: the built `memtrail` CLI, as a real process, analyses firmware
 * compiled here by arm-none-eabi-gcc and uploads it to the gateway; the ingest worker writes it
 * to ClickHouse. Every symbol row there must be the CLI's own `--json` report, symbol for symbol.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@memtrail/config';
import { createClickHouse, type ClickHouseClient } from '@memtrail/clickhouse';
import type { MemoryReport, UploadSuccessResponse } from '@memtrail/contracts';
import {
  createPrismaClient,
  createSqlPool,
  readVersion,
  type PrismaClient,
  type SqlPool,
} from '@memtrail/db';
import { createIsolatedStores, eventually, type IsolatedStores } from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import { GatewayConfig } from '../../services/gateway/src/config.js';
import {
  TEST_JWT_SECRET,
  TEST_QUERY_SECRET,
} from '../../services/gateway/test/support/gateway-harness.js';
import { createGatewayApp } from '../../services/gateway/src/create-app.js';
import { ELF, firmwareFiles, MAP, SCRIPT, SCRIPT_DIR } from '../../packages/cli/test/firmware.js';
import { cleanEnv, makeRepo, tempDir } from '../../packages/cli/test/support.js';
import { storedSymbols } from './support/stored-reports.js';
import { startIngestWorker } from './support/read-services.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
const SAMPLE = join(ROOT, 'tests', 'fixtures', 'membrowse-sample-report.json');
const ANALYSIS = [ELF, SCRIPT, '-L', SCRIPT_DIR, '--map-file', MAP];

function cli(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface SymbolRow {
  name: string;
  address: number;
  size: number;
  type: string;
  binding: string;
  section: string;
  source_file: string;
  source_line: number;
  visibility: string;
  archive: string;
  object_file: string;
}

/** The stored fields of a symbol, as uploaded or as read back. */
const fields = (s: Partial<SymbolRow>): Partial<SymbolRow> => ({
  name: s.name,
  address: s.address,
  size: s.size,
  type: s.type,
  binding: s.binding,
  section: s.section,
  source_file: s.source_file,
  source_line: s.source_line,
  visibility: s.visibility,
  archive: s.archive,
  object_file: s.object_file,
});

describe('memtrail CLI → gateway → ingest worker → ClickHouse', () => {
  const repo = tempDir('memtrail-cli-e2e-');
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let sql: SqlPool;
  let clickhouse: ClickHouseClient;
  let gateway: INestApplication;
  let worker: INestApplicationContext;
  let env: Record<string, string | undefined>;
  let commit: (message: string, files: Record<string, string>) => string;
  const shas: string[] = [];

  beforeAll(async () => {
    // The CLI runs from dist, so it must be compiled (incremental: cheap when nothing changed).
    execFileSync('npx', ['tsc', '-b', 'packages/cli'], { cwd: ROOT, stdio: 'pipe' });
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    sql = createSqlPool(stores.databaseUrl);
    clickhouse = createClickHouse({
      url: stores.clickhouseUrl,
      database: stores.clickhouseDatabase,
    });
    const owner = await prisma.user.create({ data: { email: 'ci@example.com' } });
    const { apiKey } = await createProjectWithKey(prisma, owner.id, 'Board');
    gateway = await createGatewayApp(
      loadConfig(GatewayConfig, {
        DATABASE_URL: stores.databaseUrl,
        REDIS_URL: stores.redisUrl,
        QUEUE_PREFIX: stores.queuePrefix,
        CORE_URL: 'https://memtrail.example',
        JWT_SECRET: TEST_JWT_SECRET,
        QUERY_SECRET: TEST_QUERY_SECRET,
        UPLOAD_RATE_LIMIT_PER_MINUTE: '0',
      }),
    );
    await gateway.listen(0, '127.0.0.1');
    worker = await startIngestWorker(stores);
    env = cleanEnv({ MEMTRAIL_API_KEY: apiKey, MEMTRAIL_API_URL: await gateway.getUrl() });
    ({ commit } = makeRepo(repo.path));
    writeFileSync(join(repo.path, '.gitignore'), 'out/\n*.json\n');
  }, 240_000);

  afterAll(async () => {
    await worker?.close();
    await gateway?.close();
    await prisma?.$disconnect();
    await sql?.end();
    await clickhouse?.close();
    await stores?.cleanup();
    repo.cleanup();
  });

  /** Uploads with `--output-raw-response` and waits until the worker has ingested the report. */
  async function upload(args: string[]): Promise<{ reportId: string; stderr: string }> {
    const result = await cli(
      [...args, '--target-name', 'board', '--output-raw-response'],
      repo.path,
      env,
    );
    expect(result.stderr).not.toContain('ERROR');
    expect(result.code).toBe(0);
    const raw = JSON.parse(result.stdout) as { api_response: UploadSuccessResponse };
    const reportId = (raw.api_response.data as { report_id: string }).report_id;
    await eventually(
      () => prisma.report.findUniqueOrThrow({ where: { id: reportId } }),
      (r) => r.status !== 'pending',
      { timeoutMs: 30_000 },
    );
    const stored = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(stored).toMatchObject({ status: 'ingested', ingestedVersion: 1 });
    return { reportId, stderr: result.stderr };
  }

  /** The report's symbols as stored: its record in Postgres, its blocks in ClickHouse. */
  async function symbolRows(reportId: string): Promise<Partial<SymbolRow>[]> {
    return (await storedSymbols(sql, clickhouse, reportId, 1)).map(fields);
  }

  /** Stored symbols come back in address order (at one address, in the report's order). */
  function expectRowsToBe(rows: Partial<SymbolRow>[], report: MemoryReport): void {
    expect(rows).toEqual(
      report.symbols
        .map((s, i) => ({ s, i }))
        .sort((a, b) => a.s.address - b.s.address || a.i - b.i)
        .map(({ s }) => fields(s)),
    );
  }

  it('uploads a compiled firmware whose ClickHouse rows are the CLI report, symbol for symbol', async () => {
    shas.push(commit('firmware', firmwareFiles()));
    execFileSync('sh', ['build.sh'], { cwd: repo.path });
    const local = await cli(['report', ...ANALYSIS, '--json'], repo.path, env);
    expect(local.code).toBe(0);
    const report = JSON.parse(local.stdout) as MemoryReport;
    expect(report.symbols.length).toBeGreaterThan(5);

    const { reportId } = await upload(['report', ...ANALYSIS, '--upload']);
    expectRowsToBe(await symbolRows(reportId), report);
    // The regions as stored with the report version (its header in Postgres).
    const stored = await readVersion(sql, reportId, 1);
    expect(
      Object.entries(stored!.header.memory_analysis.memory_layout)
        .map(([name, r]) => ({ name, used_size: r.used_size }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual(
      Object.entries(report.memory_layout)
        .map(([name, r]) => ({ name, used_size: r.used_size }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('shows the region changes of a second commit uploaded with --base-sha of the first', async () => {
    shas.push(commit('bigger buffer', firmwareFiles({ bufferSize: 512 })));
    execFileSync('sh', ['build.sh'], { cwd: repo.path });
    const result = await cli(
      ['report', ...ANALYSIS, '--upload', '--target-name', 'board', '--base-sha', shas[0]!],
      repo.path,
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^Uploaded board @ ${shas[1]!.slice(0, 7)}: .*RAM \\+256 B`, 'm'),
    );
    expect(result.stdout).toContain(`compare?base=${shas[0]}&head=${shas[1]}`);
  });

  it('uploads the MemBrowse sample report through the CLI with every symbol intact', async () => {
    const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as MemoryReport;
    // The sample wrapped in an envelope's metadata, as a MemBrowse upload carries it.
    const envelope = join(repo.path, 'sample-envelope.json');
    writeFileSync(
      envelope,
      JSON.stringify({ metadata: { target_name: 'x' }, memory_analysis: sample }),
    );
    shas.push(commit('sample', { 'NOTES.md': 'sample\n' }));
    const { reportId } = await upload(['upload', '--from-json', envelope]);
    expectRowsToBe(await symbolRows(reportId), sample);
  });
});
