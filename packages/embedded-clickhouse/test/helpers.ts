import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ClickHouseLogLevel,
  createClient,
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
} from '@clickhouse/client';
import { startEmbeddedClickHouse, type EmbeddedClickHouse } from '../src/index.js';

export interface TestServer {
  server: EmbeddedClickHouse;
  client: ClickHouseClient;
  dataDir: string;
  /** Stops the server and the client; keeps the data directory. */
  stop(): Promise<void>;
  /** Stops everything and removes the data directory. */
  dispose(): Promise<void>;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'memtrail-chl-test-'));
}

/** A server on a free port over `dataDir` (a new temp dir by default). */
export async function startTestServer(dataDir = tempDataDir()): Promise<TestServer> {
  const server = await startEmbeddedClickHouse({ dataDir, port: 0 });
  const client = createClientFor(server.url);
  const stop = async () => {
    await client.close();
    await server.close();
  };
  return {
    server,
    client,
    dataDir,
    stop,
    async dispose() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function rows<T>(
  client: ClickHouseClient,
  query: string,
  params?: Record<string, unknown>,
): Promise<T[]> {
  const result = await client.query({
    query,
    format: 'JSONEachRow',
    ...(params ? { query_params: params } : {}),
  });
  return result.json<T>();
}

/** A client for tests: failures are asserted, so the client need not log them. */
export function createClientFor(
  url: string,
  options: ClickHouseClientConfigOptions = {},
): ClickHouseClient {
  return createClient({
    url,
    request_timeout: 60_000,
    log: { level: ClickHouseLogLevel.OFF },
    ...options,
  });
}
