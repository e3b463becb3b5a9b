import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseClient } from '@memtrail/clickhouse';
import { SqlPool } from '@memtrail/db';
import { occurrences, type BlockSymbol } from '@memtrail/symbol-blocks';
import { BlockCache, BLOCKS_TABLE } from './block-cache.js';

/** A subject's bytes and symbol count in one version. */
export interface SubjectSize {
  size: number;
  count: number;
}

export interface VersionRef {
  reportId: string;
  version: number;
}

const key = (reportId: string, version: number) => `${reportId}/${version}`;

/**
 * What a history follows: the symbols of one name family (a name and its compiler clones, as
 * `stem`, `stem.constprop.0`, `stem [clone .isra.0]`), or of one source file.
 */
export type HistorySubject = { by: 'name'; stem: string } | { by: 'source_file'; path: string };

/**
 * One subject's size in many versions of a target without reading their records: ClickHouse
 * names the blocks that hold the subject (a projection ordered by name or by file; blocks not
 * copied there yet are read from Postgres), Postgres gives each version's block events against
 * its base, and the occurrences of those blocks in every version are the events summed along
 * the chain of bases.
 */
@Injectable()
export class BlockHistory {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(BlockCache) private readonly blocks: BlockCache,
  ) {}

  /** Per version wanted (`reportId/version`), per name or path found: bytes and symbols. */
  async sizes(
    projectId: string,
    targetId: string,
    subject: HistorySubject,
    versions: readonly VersionRef[],
  ): Promise<Map<string, Map<string, SubjectSize>>> {
    const held = await this.blocksHolding(projectId, targetId, subject);
    const result = new Map<string, Map<string, SubjectSize>>();
    const hashes = [...held.keys()];
    if (hashes.length === 0 || versions.length === 0) return result;
    const [events, bases] = await Promise.all([
      this.events(targetId, hashes),
      this.bases(targetId),
    ]);
    const counts = occurrences(
      versions.map((v) => key(v.reportId, v.version)),
      (v) => bases.get(v),
      (v) => events.get(v),
    );
    for (const [version, blocks] of counts) {
      const sizes = new Map<string, SubjectSize>();
      for (const [hash, n] of blocks) {
        if (n === 0) continue;
        for (const [subjectKey, size] of held.get(hash) ?? []) {
          const total = sizes.get(subjectKey) ?? { size: 0, count: 0 };
          total.size += n * size.size;
          total.count += n * size.count;
          sizes.set(subjectKey, total);
        }
      }
      if (sizes.size > 0) result.set(version, sizes);
    }
    return result;
  }

  /**
   * Per block holding the subject, per name (or path): its bytes and symbols (rows written
   * twice kept once).
   */
  private async blocksHolding(
    projectId: string,
    targetId: string,
    subject: HistorySubject,
  ): Promise<Map<string, Map<string, SubjectSize>>> {
    // Blocks still waiting in Postgres first: one copied meanwhile is then found in ClickHouse.
    const waiting = await this.waitingBlocks(projectId, targetId, subject);
    const held = await this.copiedBlocks(projectId, targetId, subject);
    for (const [hash, sizes] of waiting) held.set(hash, sizes);
    return held;
  }

  /** The target's blocks not yet in ClickHouse that hold the subject, read whole (few). */
  private async waitingBlocks(
    projectId: string,
    targetId: string,
    subject: HistorySubject,
  ): Promise<Map<string, Map<string, SubjectSize>>> {
    const { rows } = await this.sql.query<{ hash: Buffer }>(
      'SELECT hash FROM symbol_blocks WHERE target_id = $1 AND NOT in_clickhouse',
      [targetId],
    );
    const held = new Map<string, Map<string, SubjectSize>>();
    if (rows.length === 0) return held;
    const hashes = rows.map((r) => r.hash.toString('hex'));
    const lookup = await this.blocks.lookup(projectId, targetId, hashes);
    const matches =
      subject.by === 'name'
        ? (s: BlockSymbol) =>
            s.name === subject.stem ||
            s.name.startsWith(`${subject.stem}.`) ||
            s.name.startsWith(`${subject.stem} [clone .`)
        : (s: BlockSymbol) => s.source_file === subject.path;
    for (const hash of hashes) {
      for (const s of lookup(hash).symbols) {
        if (!matches(s)) continue;
        const key = subject.by === 'name' ? s.name : s.source_file;
        let sizes = held.get(hash);
        if (!sizes) held.set(hash, (sizes = new Map()));
        const total = sizes.get(key) ?? { size: 0, count: 0 };
        total.size += s.size;
        total.count += 1;
        sizes.set(key, total);
      }
    }
    return held;
  }

  /** The blocks in ClickHouse that hold the subject, from the projection by name or file. */
  private async copiedBlocks(
    projectId: string,
    targetId: string,
    subject: HistorySubject,
  ): Promise<Map<string, Map<string, SubjectSize>>> {
    const like = subject.by === 'name' ? subject.stem.replace(/[\\%_]/g, (c) => `\\${c}`) : '';
    const where =
      subject.by === 'name'
        ? `(name = {stem:String} OR name LIKE {raw:String} OR name LIKE {printed:String})`
        : 'source_file = {path:String}';
    const result = await this.clickhouse.query({
      query: `SELECT block_hash, subject, sum(size) AS size, count() AS count FROM (
                SELECT block_hash, ordinal, any(${subject.by}) AS subject, any(size) AS size
                FROM ${BLOCKS_TABLE}
                WHERE project_id = {projectId:String} AND target_id = {targetId:String} AND ${where}
                GROUP BY block_hash, ordinal)
              GROUP BY block_hash, subject`,
      query_params:
        subject.by === 'name'
          ? {
              projectId,
              targetId,
              stem: subject.stem,
              raw: `${like}.%`,
              printed: `${like} [clone .%`,
            }
          : { projectId, targetId, path: subject.path },
      format: 'JSONEachRow',
    });
    // UInt64 sums come quoted (no per-query setting: each costs the server a round of SETs).
    const rows = await result.json<{
      block_hash: string;
      subject: string;
      size: string;
      count: string;
    }>();
    const held = new Map<string, Map<string, SubjectSize>>();
    for (const r of rows) {
      let names = held.get(r.block_hash);
      if (!names) held.set(r.block_hash, (names = new Map()));
      names.set(r.subject, { size: Number(r.size), count: Number(r.count) });
    }
    return held;
  }

  /** Per version: the change in occurrences of each of the blocks. */
  private async events(
    targetId: string,
    hashes: string[],
  ): Promise<Map<string, Map<string, number>>> {
    const { rows } = await this.sql.query<{
      report_id: string;
      version: number;
      block_hash: Buffer;
      delta: number;
    }>(
      `SELECT report_id::text, version, block_hash, delta FROM block_events
       WHERE target_id = $1 AND block_hash = ANY($2::bytea[])`,
      [targetId, hashes.map((h) => Buffer.from(h, 'hex'))],
    );
    const events = new Map<string, Map<string, number>>();
    for (const row of rows) {
      const k = key(row.report_id, row.version);
      let map = events.get(k);
      if (!map) events.set(k, (map = new Map()));
      map.set(row.block_hash.toString('hex'), row.delta);
    }
    return events;
  }

  /** Every version of the target with the version its events count from. */
  private async bases(targetId: string): Promise<Map<string, string>> {
    const { rows } = await this.sql.query<{
      report_id: string;
      version: number;
      base_report_id: string;
      base_version: number;
    }>(
      `SELECT report_id::text, version, base_report_id::text, base_version FROM report_versions
       WHERE target_id = $1 AND base_report_id IS NOT NULL`,
      [targetId],
    );
    return new Map(
      rows.map((r) => [key(r.report_id, r.version), key(r.base_report_id, r.base_version)]),
    );
  }
}
