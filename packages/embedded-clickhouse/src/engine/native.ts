import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The subset of chdb's native addon this package drives directly.
 *
 * Why not chdb's public `Session.queryBindAsync`? It re-escapes every string
 * parameter (TSV escaping) before handing it to the engine. Values arriving over
 * HTTP as `param_<name>` are already in the engine's escaped text form (that is
 * what @clickhouse/client sends to a real server), so going through the public
 * API would escape them twice: `it\'s` would come back as `it\\'s`, and Array
 * parameters fail to parse. The addon's own entry points take the raw strings
 * and let the engine parse them exactly as a ClickHouse server does.
 */
export interface NativeQueryResult {
  bytes: Uint8Array;
  elapsed: number;
  rowsRead: number;
  bytesRead: number;
}

export interface NativeInsertResult {
  elapsed: number;
  rowsWritten: number;
  bytesWritten: number;
}

export type NativeConnection = object;

export interface ChdbNative {
  CreateConnection(path: string, args?: readonly string[]): NativeConnection | null;
  CloseConnection(conn: NativeConnection): void;
  QueryAsyncConnection(
    conn: NativeConnection,
    sql: string,
    format: string,
    params?: Record<string, string>,
  ): Promise<NativeQueryResult>;
  InsertRawAsyncConnection(
    conn: NativeConnection,
    prefix: string,
    data: Buffer,
    countLines: boolean,
  ): Promise<NativeInsertResult>;
}

const REQUIRED = [
  'CreateConnection',
  'CloseConnection',
  'QueryAsyncConnection',
  'InsertRawAsyncConnection',
] as const;

let cached: ChdbNative | undefined;

/**
 * Loads the addon through chdb's own loader (so the platform package lookup and
 * the addon instance are shared with anything else in the process that uses
 * chdb). Node's CJS loader is used on purpose: the engine is a process-wide
 * singleton, and test runners with per-file module registries must not load a
 * second copy of the JavaScript around it.
 */
export function loadChdbNative(): ChdbNative {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const entry = require.resolve('chdb');
  const loader = require(join(dirname(entry), 'dist', 'loader.js')) as {
    loadNative(): Record<string, unknown>;
  };
  const native = loader.loadNative();
  const missing = REQUIRED.filter((name) => typeof native[name] !== 'function');
  if (missing.length > 0) {
    throw new Error(
      `The installed chdb addon lacks ${missing.join(', ')}; ` +
        '@memtrail/embedded-clickhouse is written against chdb 3.4 — check the installed version.',
    );
  }
  cached = native as unknown as ChdbNative;
  return cached;
}
