/** The built `memtrail` CLI as a real process, and a gateway taking its uploads. */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { loadConfig } from '@memtrail/config';
import type { IsolatedStores } from '@memtrail/testing';
import { GatewayConfig } from '../../../services/gateway/src/config.js';
import { createGatewayApp } from '../../../services/gateway/src/create-app.js';
import {
  TEST_JWT_SECRET,
  TEST_QUERY_SECRET,
} from '../../../services/gateway/test/support/gateway-harness.js';

export const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');

export type Env = Record<string, string | undefined>;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Compiles the CLI (incremental: cheap when nothing changed), which runs from dist. */
export function buildCli(): void {
  execFileSync('npx', ['tsc', '-b', 'packages/cli'], { cwd: ROOT, stdio: 'pipe' });
}

export function cli(args: string[], cwd: string, env: Env): Promise<CliResult> {
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

/** The CLI's path, for tests that drive the process themselves (e.g. to kill it). */
export const CLI_BIN = BIN;

/** A gateway on a free port over the isolated stores, with upload rate limits off. */
export async function startGateway(stores: IsolatedStores): Promise<INestApplication> {
  const gateway = await createGatewayApp(
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
  return gateway;
}
