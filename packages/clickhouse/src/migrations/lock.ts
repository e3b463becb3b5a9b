import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ClickHouseClient } from '@clickhouse/client';
import { MigrationLockTimeoutError } from './errors.js';

/**
 * A lease-based lock for migrators, built from plain inserts because
 * ClickHouse has no advisory locks.
 *
 * Protocol (claim, then check you are alone): a candidate inserts a `claim`
 * row and then reads the live claims. It holds the lock only if its claim is
 * the only live one; otherwise it inserts a `release` for that claim and tries
 * again later under a fresh name. Two candidates can never both hold it: each
 * reads after its own insert has completed, so whichever reads second sees
 * the other's claim. (Both may see each other and back off; randomised,
 * growing pauses make that settle.) This needs reads that see completed
 * inserts — true on one server with synchronous inserts, which is why every
 * insert here sets `async_insert = 0`.
 *
 * A claim expires after `leaseMs` unless the holder renews it, so a crashed
 * migrator blocks others for at most one lease. The holder renews every third
 * of a lease and checks its lease before each migration.
 */
export const LOCK_TABLE = 'schema_migrations_lock';

export const LOCK_TABLE_DDL = `CREATE TABLE IF NOT EXISTS ${LOCK_TABLE}
(
    owner String,
    event Enum8('claim' = 1, 'release' = 2),
    at DateTime64(3, 'UTC'),
    expires_at DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY (owner, at)
TTL toDateTime(at) + INTERVAL 7 DAY`;

export interface LockOptions {
  /** How long a claim stays valid without renewal. */
  leaseMs: number;
  /** How long to wait for the lock before giving up. */
  timeoutMs: number;
}

const SYNC_INSERT = { async_insert: 0 } as const;

export class MigrationLock {
  private renewTimer: NodeJS.Timeout | undefined;
  private validUntil: number;
  private renewError: unknown;
  private released = false;

  private constructor(
    private readonly client: ClickHouseClient,
    readonly owner: string,
    private readonly leaseMs: number,
    claimedAt: number,
  ) {
    this.validUntil = claimedAt + leaseMs;
    this.renewTimer = setInterval(() => void this.renew(), Math.max(50, Math.floor(leaseMs / 3)));
    this.renewTimer.unref();
  }

  static async acquire(client: ClickHouseClient, options: LockOptions): Promise<MigrationLock> {
    const base = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const started = Date.now();
    let pause = 50;
    for (let attempt = 1; ; attempt++) {
      let holders = await liveOwners(client);
      if (holders.length === 0) {
        const owner = `${base}#${attempt}`;
        const claimedAt = Date.now();
        await insertEvent(client, owner, 'claim', options.leaseMs);
        holders = await liveOwners(client);
        if (holders.length === 1 && holders[0] === owner) {
          return new MigrationLock(client, owner, options.leaseMs, claimedAt);
        }
        await insertEvent(client, owner, 'release', 0);
        holders = holders.filter((h) => h !== owner);
      }
      const waited = Date.now() - started;
      if (waited >= options.timeoutMs) throw new MigrationLockTimeoutError(waited, holders);
      await sleep(pause / 2 + Math.random() * pause);
      pause = Math.min(pause * 2, 1000);
    }
  }

  /** Throws if the lease may have run out (renewals failed or stalled). */
  assertHeld(): void {
    const marginMs = Math.min(5_000, this.leaseMs / 5);
    if (this.released || Date.now() > this.validUntil - marginMs) {
      throw new Error(
        `Lost the migration lock ${this.owner}: its lease could not be renewed in time` +
          (this.renewError ? ` (${(this.renewError as Error).message})` : ''),
        { cause: this.renewError },
      );
    }
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.renewTimer);
    await insertEvent(this.client, this.owner, 'release', 0);
  }

  private async renew(): Promise<void> {
    if (this.released) return;
    const sentAt = Date.now();
    try {
      await insertEvent(this.client, this.owner, 'claim', this.leaseMs);
      this.validUntil = sentAt + this.leaseMs;
    } catch (err) {
      this.renewError = err;
    }
  }
}

async function insertEvent(
  client: ClickHouseClient,
  owner: string,
  event: 'claim' | 'release',
  leaseMs: number,
): Promise<void> {
  // Times come from the server's clock, so migrators on hosts with skewed
  // clocks still agree on which claims have expired.
  await client.command({
    query: `INSERT INTO ${LOCK_TABLE} (owner, event, at, expires_at)
            SELECT {owner:String}, {event:String}, now64(3), now64(3) + toIntervalMillisecond({lease:UInt32})`,
    query_params: { owner, event, lease: leaseMs },
    clickhouse_settings: SYNC_INSERT,
  });
}

/** Owners whose newest claim has not expired and who have not released it. */
async function liveOwners(client: ClickHouseClient): Promise<string[]> {
  const result = await client.query({
    query: `SELECT owner FROM ${LOCK_TABLE}
            WHERE at > now64(3) - INTERVAL 1 DAY
            GROUP BY owner
            HAVING countIf(event = 'release') = 0 AND max(expires_at) > now64(3)
            ORDER BY owner`,
    format: 'JSONEachRow',
  });
  return (await result.json<{ owner: string }>()).map((r) => r.owner);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
