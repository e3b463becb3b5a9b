import {
  ClickHouseLogLevel,
  createClient,
  type ClickHouseClient,
  type ClickHouseSettings,
} from '@clickhouse/client';

export interface ClickHouseOptions {
  /** e.g. http://localhost:8123 (credentials may be embedded in the URL). */
  url: string;
  /** Database unqualified table names resolve in; the server default when omitted. */
  database?: string;
  username?: string;
  password?: string;
  /** Sent with every request (e.g. `{ async_insert: 0 }`). */
  settings?: ClickHouseSettings;
  requestTimeoutMs?: number;
  /** Shown in the server's query log as the client name. */
  application?: string;
  /** Client-internal log level; errors are surfaced as exceptions either way. */
  logLevel?: ClickHouseLogLevel;
}

/** A configured @clickhouse/client client; everything else stays the client's own API. */
export function createClickHouse(options: ClickHouseOptions): ClickHouseClient {
  return createClient({
    url: options.url,
    ...(options.database === undefined ? {} : { database: options.database }),
    ...(options.username === undefined ? {} : { username: options.username }),
    ...(options.password === undefined ? {} : { password: options.password }),
    ...(options.settings === undefined ? {} : { clickhouse_settings: options.settings }),
    request_timeout: options.requestTimeoutMs ?? 60_000,
    application: options.application ?? 'memtrail',
    log: { level: options.logLevel ?? ClickHouseLogLevel.WARN },
  });
}

/** Resolves when the server answers /ping; rejects with the reason otherwise. */
export async function pingClickHouse(client: ClickHouseClient): Promise<void> {
  const result = await client.ping();
  if (!result.success) {
    throw new Error(`ClickHouse did not answer /ping: ${result.error.message}`, {
      cause: result.error,
    });
  }
}
