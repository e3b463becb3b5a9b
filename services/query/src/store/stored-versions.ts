import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { MemoryReport } from '@memtrail/contracts';
import { readVersion, SqlPool } from '@memtrail/db';
import type { VersionRecord } from '@memtrail/symbol-blocks';
import { QueryConfig } from '../config.js';

/** Which report version to read: always one Postgres says is complete (ingested). */
export interface ReportVersion {
  projectId: string;
  targetId: string;
  reportId: string;
  version: number;
}

/** What a read needs of a stored version: its layout and its record of blocks. */
export interface LoadedVersion {
  layout: MemoryReport['memory_layout'];
  record: VersionRecord;
}

/**
 * Report versions from Postgres, decoded once and kept: a version never changes after its
 * upload (an identical build's record is copied before it is marked ingested), so the cache
 * never needs invalidating. A 40k-symbol version weighs about 150 KB decoded.
 */
@Injectable()
export class StoredVersions {
  private readonly cache: LRUCache<string, LoadedVersion>;

  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(QueryConfig) config: Pick<QueryConfig, 'QUERY_VERSION_CACHE_MB'>,
  ) {
    this.cache = new LRUCache({
      maxSize: config.QUERY_VERSION_CACHE_MB * 1024 * 1024,
      sizeCalculation: (v) => 200 + 80 * v.record.entries.length + 100 * v.record.duplicates.size,
    });
  }

  async get(r: ReportVersion): Promise<LoadedVersion> {
    const key = `${r.reportId}/${r.version}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const stored = await readVersion(this.sql, r.reportId, r.version);
    if (!stored?.record) {
      // Readers only ask for ingested versions, which always have their record.
      throw new Error(`report ${r.reportId} has no stored record for version ${r.version}`);
    }
    const loaded: LoadedVersion = {
      layout: stored.header.memory_analysis?.memory_layout ?? {},
      record: stored.record,
    };
    this.cache.set(key, loaded);
    return loaded;
  }
}
