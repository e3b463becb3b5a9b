import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EngineConnection, type EngineRequest, type EngineResult } from './connection.js';
import { Mutex } from './mutex.js';
import { loadChdbNative, type ChdbNative } from './native.js';

export interface EnginePoolOptions {
  dataDir: string;
  /** Number of chdb connections; statements on different connections run in parallel. */
  size: number;
}

/**
 * Engine arguments fixed at connect time. Databases load synchronously so a
 * restarted server sees every table from its first query, and `implicit_select`
 * is turned off because a ClickHouse server does not accept bare expressions.
 */
const CONNECTION_ARGS = ['--async_load_databases=0', '--implicit_select=0'];

// libchdb binds one data directory per process. The registry of directories in
// use hangs off the addon object itself: that object exists once per process
// (Node's own module cache), whereas module state and even globalThis are
// per test file under test runners that sandbox each file.
const REGISTRY_KEY = Symbol.for('memtrail.embedded-clickhouse.dataDirs');
type Registry = Map<string, number>;
function registry(native: ChdbNative): Registry {
  const holder = native as unknown as Record<symbol, Registry | undefined>;
  return (holder[REGISTRY_KEY] ??= new Map());
}

/**
 * A fixed set of chdb connections to one data directory. Each request borrows
 * one connection for its whole duration, so per-request session state (USE,
 * SET) is never shared; waiting requests are served in arrival order.
 */
export class EnginePool {
  private readonly idle: EngineConnection[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly busy = new Set<EngineConnection>();
  private closing: Promise<void> | undefined;
  private drained: (() => void) | undefined;
  private replacing = 0;
  private live = 0;

  private constructor(
    private readonly native: ChdbNative,
    private readonly paramLock: Mutex,
    private readonly bodyDir: string,
    readonly dataDir: string,
    readonly version: string,
    readonly timezone: string,
  ) {}

  static async open(options: EnginePoolOptions): Promise<EnginePool> {
    const dataDir = resolve(options.dataDir);
    const native = loadChdbNative();
    const reg = registry(native);
    for (const [other, count] of reg) {
      if (other !== dataDir && count > 0) {
        throw new Error(
          `The embedded ClickHouse in this process already serves ${other}; ` +
            `chdb supports one data directory per process (requested ${dataDir}).`,
        );
      }
    }
    mkdirSync(dataDir, { recursive: true });
    // Insert bodies on their way to the engine; left-overs of a killed process are dropped
    // when the first pool of this process opens the directory.
    const bodyDir = join(dataDir, 'insert-bodies');
    if (!reg.get(dataDir)) rmSync(bodyDir, { recursive: true, force: true });
    mkdirSync(bodyDir, { recursive: true });
    reg.set(dataDir, (reg.get(dataDir) ?? 0) + 1);
    const opened: EngineConnection[] = [];
    try {
      const size = Math.max(1, Math.floor(options.size));
      // All connections share one parameter lock (see EngineConnection.execute).
      const paramLock = new Mutex();
      for (let i = 0; i < size; i++) {
        opened.push(
          await EngineConnection.open(native, dataDir, CONNECTION_ARGS, paramLock, bodyDir),
        );
      }
      const first = opened[0]!;
      const info = await first.run({
        sql: 'SELECT version(), timezone()',
        params: {},
        settings: {},
        database: 'default',
        format: 'TabSeparated',
      });
      const [version = 'unknown', timezone = 'UTC'] = info.body.toString('utf8').trim().split('\t');
      const pool = new EnginePool(native, paramLock, bodyDir, dataDir, version, timezone);
      pool.idle.push(...opened);
      pool.live = opened.length;
      return pool;
    } catch (err) {
      for (const conn of opened) conn.close();
      release(reg, dataDir);
      throw err;
    }
  }

  async run(request: EngineRequest): Promise<EngineResult> {
    const conn = await this.acquire();
    try {
      return await conn.run(request);
    } finally {
      this.release(conn);
    }
  }

  /** Waits for running statements, then closes every connection. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.busy.size > 0 || this.replacing > 0) {
        await new Promise<void>((done) => (this.drained = done));
      }
      for (const conn of this.idle.splice(0)) conn.close();
      release(registry(this.native), this.dataDir);
    })();
    return this.closing;
  }

  private acquire(): Promise<EngineConnection> {
    if (this.closing) return Promise.reject(new Error('The embedded ClickHouse is shutting down'));
    if (this.live === 0)
      return Promise.reject(new Error('No embedded ClickHouse connection is open'));
    const conn = this.idle.pop();
    if (conn) {
      this.busy.add(conn);
      return Promise.resolve(conn);
    }
    return new Promise((resolveConn, reject) =>
      this.waiters.push({ resolve: resolveConn, reject }),
    );
  }

  private release(conn: EngineConnection): void {
    this.busy.delete(conn);
    if (conn.broken) {
      conn.close();
      if (this.closing && this.waiters.length === 0) {
        this.live--;
        if (this.busy.size === 0 && this.replacing === 0) this.drained?.();
      } else {
        this.replace();
      }
      return;
    }
    this.handOver(conn);
  }

  private handOver(conn: EngineConnection): void {
    const next = this.waiters.shift();
    if (next) {
      this.busy.add(conn);
      next.resolve(conn);
      return;
    }
    this.idle.push(conn);
    if (this.closing && this.busy.size === 0 && this.replacing === 0) this.drained?.();
  }

  private replace(): void {
    this.replacing++;
    EngineConnection.open(this.native, this.dataDir, CONNECTION_ARGS, this.paramLock, this.bodyDir)
      .then((fresh) => {
        this.replacing--;
        this.handOver(fresh);
      })
      .catch((err: unknown) => {
        this.replacing--;
        this.live--;
        // Waiters are still served by the remaining connections; with none
        // left they fail now instead of waiting forever.
        if (this.live === 0) {
          for (const waiter of this.waiters.splice(0)) {
            waiter.reject(
              new Error('No embedded ClickHouse connection could be reopened', { cause: err }),
            );
          }
        }
        if (this.closing && this.busy.size === 0 && this.replacing === 0) this.drained?.();
      });
  }
}

interface Waiter {
  resolve(conn: EngineConnection): void;
  reject(err: Error): void;
}

function release(reg: Registry, dataDir: string): void {
  const count = (reg.get(dataDir) ?? 1) - 1;
  if (count <= 0) reg.delete(dataDir);
  else reg.set(dataDir, count);
}
