import { Inject, Injectable } from '@nestjs/common';
import type { ReportRegionRow, ReportSectionRow, ReportSymbolRow } from '@memtrail/contracts';
import { reportSymbols, type BlockLookup } from '@memtrail/symbol-blocks';
import { BlockCache } from './block-cache.js';
import {
  BlockHistory,
  type HeldBlocks,
  type HistorySubject,
  type VersionRef,
  type VersionSizes,
} from './block-history.js';
import { StoredVersions, type LoadedVersion, type ReportVersion } from './stored-versions.js';

export type { LoadedVersion, ReportVersion } from './stored-versions.js';
export type {
  HeldBlocks,
  HistorySubject,
  SubjectSize,
  VersionRef,
  VersionSizes,
} from './block-history.js';

export interface FileDelta {
  source_file: string;
  old_size: number;
  new_size: number;
}

/**
 * The query service's reads of stored reports. A report version is its record (Postgres) of
 * content-addressed symbol blocks (ClickHouse), both kept in memory once read; every read names
 * the version Postgres records as ingested (docs/query.md).
 */
@Injectable()
export class SymbolStore {
  constructor(
    @Inject(StoredVersions) private readonly versions: StoredVersions,
    @Inject(BlockCache) private readonly blocks: BlockCache,
    @Inject(BlockHistory) private readonly history: BlockHistory,
  ) {}

  async regions(r: ReportVersion): Promise<ReportRegionRow[]> {
    const { layout } = await this.versions.get(r);
    return Object.entries(layout)
      .map(([name, region]) => ({
        name,
        type: region.type ?? 'UNKNOWN',
        address: region.address,
        limit_size: region.limit_size,
        used_size: region.used_size,
        free_size: region.limit_size - region.used_size,
      }))
      .sort(byAddressAndName);
  }

  async sections(r: ReportVersion): Promise<ReportSectionRow[]> {
    const { layout } = await this.versions.get(r);
    return Object.entries(layout)
      .flatMap(([region, { sections }]) =>
        (sections ?? []).map((s) => ({
          name: s.name,
          region,
          address: s.address,
          size: s.size,
          type: s.type ?? 'data',
        })),
      )
      .sort(byAddressAndName);
  }

  /** Every symbol of a report version, by address. */
  async symbols(r: ReportVersion): Promise<ReportSymbolRow[]> {
    const version = await this.versions.get(r);
    return this.rows(r, version).then((rows) => rows.map(({ visibility: _, ...row }) => row));
  }

  /** A version's layout and record (cached: versions never change). */
  version(r: ReportVersion): Promise<LoadedVersion> {
    return this.versions.get(r);
  }

  /** The build folder found in a version's source paths when it was stored. */
  async sourceRoot(r: ReportVersion): Promise<string> {
    return (await this.versions.get(r)).record.sourceRoot;
  }

  /** Blocks of the version's target by hash, from memory or ClickHouse. */
  lookup(r: ReportVersion, hashes: readonly string[]): Promise<BlockLookup> {
    return this.blocks.lookup(r.projectId, r.targetId, hashes);
  }

  /** Per source file, bytes in each of two reports, only files that changed. */
  async fileDeltas(a: ReportVersion, b: ReportVersion): Promise<FileDelta[]> {
    const [oldRows, newRows] = await Promise.all([
      this.versions.get(a).then((v) => this.rows(a, v)),
      this.versions.get(b).then((v) => this.rows(b, v)),
    ]);
    const files = new Map<string, FileDelta>();
    const add = (source_file: string, side: 'old_size' | 'new_size', size: number) => {
      let file = files.get(source_file);
      if (!file) files.set(source_file, (file = { source_file, old_size: 0, new_size: 0 }));
      file[side] += size;
    };
    for (const s of oldRows) add(s.source_file, 'old_size', s.size);
    for (const s of newRows) add(s.source_file, 'new_size', s.size);
    return [...files.values()].filter((f) => f.old_size !== f.new_size);
  }

  /** The blocks of a target that hold a subject (a name family or a source file). */
  blocksHolding(
    target: { projectId: string; targetId: string },
    subject: HistorySubject,
  ): Promise<HeldBlocks> {
    return this.history.blocksHolding(target.projectId, target.targetId, subject);
  }

  /**
   * The subject held by `held` in each of `versions` (in their order): per name (or path)
   * found. `timeline` is the target's timeline the versions were selected from.
   */
  subjectSizes(
    targetId: string,
    held: HeldBlocks,
    versions: readonly VersionRef[],
    timeline: object,
  ): Promise<VersionSizes> {
    return this.history.sizes(targetId, held, versions, timeline);
  }

  private async rows(r: ReportVersion, version: LoadedVersion) {
    const lookup = await this.blocks.lookup(
      r.projectId,
      r.targetId,
      version.record.entries.map((e) => e.hash),
    );
    return reportSymbols(version.record, lookup);
  }
}

function byAddressAndName<T extends { address: number; name: string }>(a: T, b: T): number {
  return a.address - b.address || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
