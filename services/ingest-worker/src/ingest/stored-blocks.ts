import { Inject, Injectable } from '@nestjs/common';
import { SqlPool, type SqlClient } from '@memtrail/db';

/** A block not yet in ClickHouse, with what writing it needs. */
export interface PendingBlock {
  projectId: string;
  targetId: string;
  hash: string;
  /** Canonical JSON, gzip-compressed. */
  data: Buffer;
  symbolCount: number;
  /** Including the attempt under way: above 1, ClickHouse may hold the block already. */
  writeAttempts: number;
}

/** Session advisory lock key: one worker copies blocks at a time. */
const FLUSH_LOCK = 'memtrail:symbol-block-copies';

/**
 * The Postgres side of copying symbol blocks to ClickHouse: how many wait, claiming a batch
 * (oldest first, each claim counted as an attempt and committed before ClickHouse is written,
 * so that a worker dying in between leaves the next one a sign to look), marking the copied.
 */
@Injectable()
export class StoredBlocks {
  constructor(@Inject(SqlPool) private readonly sql: SqlPool) {}

  /** Symbol rows of the blocks waiting, and how long the oldest has waited. */
  async waiting(): Promise<{ rows: number; oldestMs: number }> {
    const { rows } = await this.sql.query<{ rows: string; oldest_ms: number | null }>(
      `SELECT coalesce(sum(symbol_count), 0) AS rows,
              extract(epoch FROM now() - min(created_at)) * 1000 AS oldest_ms
       FROM symbol_blocks WHERE NOT in_clickhouse AND copy_error IS NULL`,
    );
    return { rows: Number(rows[0]!.rows), oldestMs: Number(rows[0]!.oldest_ms ?? 0) };
  }

  /**
   * Runs `copy` holding the copy lock (a Postgres session lock, released when the session ends,
   * so a worker that dies holds nothing); undefined when another worker holds it.
   */
  async exclusively<T>(copy: (db: SqlClient) => Promise<T>): Promise<T | undefined> {
    const db = await this.sql.connect();
    let broken = false;
    try {
      const { rows } = await db.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
        [FLUSH_LOCK],
      );
      if (!rows[0]!.locked) return undefined;
      try {
        return await copy(db);
      } finally {
        await db
          .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [FLUSH_LOCK])
          .catch(() => (broken = true));
      }
    } finally {
      db.release(broken);
    }
  }

  /** The oldest waiting blocks, at most `blocks` of them, each counted as attempted. */
  async claim(db: SqlClient, blocks: number): Promise<PendingBlock[]> {
    const { rows } = await db.query<{
      project_id: string;
      target_id: string;
      hash: Buffer;
      data: Buffer;
      symbol_count: number;
      write_attempts: number;
    }>(
      `UPDATE symbol_blocks b SET write_attempts = b.write_attempts + 1
       FROM (SELECT target_id, hash FROM symbol_blocks
             WHERE NOT in_clickhouse AND copy_error IS NULL
             ORDER BY created_at LIMIT $1) w, targets t
       WHERE b.target_id = w.target_id AND b.hash = w.hash AND t.id = b.target_id
       RETURNING t.project_id::text, b.target_id::text, b.hash, b.data, b.symbol_count,
                 b.write_attempts`,
      [blocks],
    );
    return rows
      .map((r) => ({
        projectId: r.project_id,
        targetId: r.target_id,
        hash: r.hash.toString('hex'),
        data: r.data,
        symbolCount: r.symbol_count,
        writeAttempts: r.write_attempts,
      }))
      .sort((a, b) => (a.targetId + a.hash < b.targetId + b.hash ? -1 : 1));
  }

  /** Leaves a block out of batches for good (until a re-ingest), saying why. */
  async markRefused(db: SqlClient, block: PendingBlock, reason: string): Promise<void> {
    await db.query('UPDATE symbol_blocks SET copy_error = $3 WHERE target_id = $1 AND hash = $2', [
      block.targetId,
      Buffer.from(block.hash, 'hex'),
      reason,
    ]);
  }

  async markCopied(db: SqlClient, blocks: readonly PendingBlock[]): Promise<void> {
    if (blocks.length === 0) return;
    await db.query(
      `UPDATE symbol_blocks b SET in_clickhouse = true
       FROM unnest($1::uuid[], $2::bytea[]) AS c(target_id, hash)
       WHERE b.target_id = c.target_id AND b.hash = c.hash`,
      [blocks.map((b) => b.targetId), blocks.map((b) => Buffer.from(b.hash, 'hex'))],
    );
  }
}
