import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseClient } from '@memtrail/clickhouse';
import { SqlPool } from '@memtrail/db';
import { occurrences, type BlockSymbol } from '@memtrail/symbol-blocks';
import { BlockCache, BLOCKS_TABLE } from './block-cache.js';
import { StampedCache } from './stamped-cache.js';

/** A subject's bytes and symbol count in one version. */
export interface SubjectSize {
  size: number;
  count: number;
}

export interface VersionRef {
  reportId: string;
  version: number;
}

/**
 * What a history follows: the symbols of one name family (a name and its compiler clones, as
 * `stem`, `stem.constprop.0`, `stem [clone .isra.0]`), or of one source file.
 */
export type HistorySubject = { by: 'name'; stem: string } | { by: 'source_file'; path: string };

/** Per block holding a subject, per name (or path) it holds: bytes and symbols. */
export type HeldBlocks = Map<string, Map<string, SubjectSize>>;

/** Per version asked for, in its order: per name or path found, bytes and symbols (or none). */
export type VersionSizes = (ReadonlyMap<string, SubjectSize> | undefined)[];

/**
 * Every version of a target numbered, with its base's number: history counts walk numbers,
 * cheaper to look up than 5,000 report ids per read.
 */
interface VersionGraph {
  /** Per report id, per version: its number. */
  numbers: Map<string, Map<number, number>>;
  /** Per number: its base's number, -1 for a version without one (or whose base is gone). */
  bases: Int32Array;
}

/** Targets whose version graphs are kept; the least recently used is dropped beyond this. */
const MAX_TARGETS = 32;

/**
 * One subject's size in many versions of a target without reading their records: ClickHouse
 * names the blocks that hold the subject (a projection ordered by name or by file; blocks not
 * copied there yet are read from Postgres), Postgres gives each version's block events against
 * its base, and the occurrences of those blocks in every version are the events summed along
 * the chain of bases.
 */
@Injectable()
export class BlockHistory {
  /**
   * Every version's base, per target, kept per timeline (see `sizes`): a base is written once,
   * in the statement that marks its version ingested, so a graph read after a timeline was
   * read holds every version that timeline names, with its base. Reading 5,000 rows once per
   * change of the target instead of once per history.
   */
  private readonly graphs = new StampedCache<VersionGraph>(MAX_TARGETS);

  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(BlockCache) private readonly blocks: BlockCache,
  ) {}

  /**
   * The subject's size in each of `versions`, in their order. Versions holding the same blocks
   * the same number of times share one map. `timeline` is what the versions were selected from,
   * read from Postgres before this call and replaced whenever a report of the target is written
   * or deleted: what is kept for it is valid for its versions.
   */
  async sizes(
    targetId: string,
    held: HeldBlocks,
    versions: readonly VersionRef[],
    timeline: object,
  ): Promise<VersionSizes> {
    const hashes = [...held.keys()];
    if (hashes.length === 0) return versions.map(() => undefined);
    const [graph, rows] = await Promise.all([
      this.graphs.get(targetId, timeline, () => this.loadGraph(targetId)),
      this.events(targetId, hashes),
    ]);
    const number = (reportId: string, version: number) => graph.numbers.get(reportId)?.get(version);
    const events = new Map<number, Map<string, number>>();
    for (const row of rows) {
      // Events of a version ingested after the timeline was read: no version asked for.
      const n = number(row.report_id, row.version);
      if (n === undefined) continue;
      let map = events.get(n);
      if (!map) events.set(n, (map = new Map()));
      map.set(row.block_hash.toString('hex'), row.delta);
    }
    const wanted = versions.map((v) => number(v.reportId, v.version));
    const counts = occurrences(
      wanted.filter((n) => n !== undefined),
      graph.bases,
      (n) => events.get(n),
    );
    // Consecutive versions usually share their counts (the same map): sum each once.
    const summed = new Map<ReadonlyMap<string, number>, Map<string, SubjectSize>>();
    return wanted.map((n) => {
      if (n === undefined) return undefined;
      const blocks = counts[n]!;
      let sizes = summed.get(blocks);
      if (!sizes) summed.set(blocks, (sizes = sum(blocks, held)));
      return sizes.size > 0 ? sizes : undefined;
    });
  }

  /**
   * Per block holding the subject, per name (or path): its bytes and symbols (rows written
   * twice kept once).
   */
  async blocksHolding(
    projectId: string,
    targetId: string,
    subject: HistorySubject,
  ): Promise<HeldBlocks> {
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
  ): Promise<HeldBlocks> {
    const { rows } = await this.sql.query<{ hash: Buffer }>({
      name: 'query-waiting-blocks',
      text: 'SELECT hash FROM symbol_blocks WHERE target_id = $1 AND NOT in_clickhouse',
      values: [targetId],
    });
    const held: HeldBlocks = new Map();
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
        if (matches(s)) count(held, hash, subject.by === 'name' ? s.name : s.source_file, s.size);
      }
    }
    return held;
  }

  /** The blocks in ClickHouse that hold the subject, from the projection by name or file. */
  private async copiedBlocks(
    projectId: string,
    targetId: string,
    subject: HistorySubject,
  ): Promise<HeldBlocks> {
    const like = subject.by === 'name' ? subject.stem.replace(/[\\%_]/g, (c) => `\\${c}`) : '';
    const where =
      subject.by === 'name'
        ? `(name = {stem:String} OR name LIKE {raw:String} OR name LIKE {printed:String})`
        : 'source_file = {path:String}';
    // Each symbol row of the blocks; rows written twice (same block and ordinal) counted once,
    // here rather than by two GROUP BYs, which cost the server a few ms more than the read.
    const result = await this.clickhouse.query({
      query: `SELECT block_hash, ordinal, ${subject.by} AS subject, size FROM ${BLOCKS_TABLE}
              WHERE project_id = {projectId:String} AND target_id = {targetId:String} AND ${where}`,
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
    // UInt64 comes quoted (no per-query setting: each costs the server a round of SETs).
    const rows = await result.json<{
      block_hash: string;
      ordinal: number;
      subject: string;
      size: string;
    }>();
    const held: HeldBlocks = new Map();
    const seen = new Set<string>();
    for (const r of rows) {
      const row = `${r.block_hash}/${r.ordinal}`;
      if (seen.has(row)) continue;
      seen.add(row);
      count(held, r.block_hash, r.subject, Number(r.size));
    }
    return held;
  }

  /** The events of the blocks: per version, the change in occurrences of each. */
  private async events(targetId: string, hashes: string[]) {
    const { rows } = await this.sql.query<{
      report_id: string;
      version: number;
      block_hash: Buffer;
      delta: number;
    }>({
      name: 'query-block-events',
      text: `SELECT report_id::text, version, block_hash, delta FROM block_events
             WHERE target_id = $1 AND block_hash = ANY($2::bytea[])`,
      values: [targetId, hashes.map((h) => Buffer.from(h, 'hex'))],
    });
    return rows;
  }

  /** Every version of the target, numbered, with the number of the version its events count from. */
  private async loadGraph(targetId: string): Promise<VersionGraph> {
    const { rows } = await this.sql.query<{
      report_id: string;
      version: number;
      base_report_id: string | null;
      base_version: number | null;
    }>(
      `SELECT report_id::text, version, base_report_id::text, base_version FROM report_versions
       WHERE target_id = $1`,
      [targetId],
    );
    const numbers = new Map<string, Map<number, number>>();
    rows.forEach((r, n) => {
      let versions = numbers.get(r.report_id);
      if (!versions) numbers.set(r.report_id, (versions = new Map()));
      versions.set(r.version, n);
    });
    const bases = Int32Array.from(rows, (r) =>
      r.base_report_id === null ? -1 : (numbers.get(r.base_report_id)?.get(r.base_version!) ?? -1),
    );
    return { numbers, bases };
  }
}

/** Adds `size` bytes and `count` symbols to `key`'s total in `sizes`. */
function add(sizes: Map<string, SubjectSize>, key: string, size: number, count: number): void {
  const total = sizes.get(key);
  if (total) {
    total.size += size;
    total.count += count;
  } else sizes.set(key, { size, count });
}

/** One more symbol of `size` bytes named (or in the file) `key` in block `hash`. */
function count(held: HeldBlocks, hash: string, key: string, size: number): void {
  let sizes = held.get(hash);
  if (!sizes) held.set(hash, (sizes = new Map()));
  add(sizes, key, size, 1);
}

/** A version's bytes and symbols of the subject, per name or path, from its block counts. */
function sum(blocks: ReadonlyMap<string, number>, held: HeldBlocks): Map<string, SubjectSize> {
  const sizes = new Map<string, SubjectSize>();
  for (const [hash, n] of blocks) {
    for (const [key, size] of held.get(hash) ?? []) add(sizes, key, n * size.size, n * size.count);
  }
  return sizes;
}
