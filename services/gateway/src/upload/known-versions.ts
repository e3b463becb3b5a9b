import { Injectable } from '@nestjs/common';
import { readRecord, type Queryable, type StoredRecord, type VersionKey } from '@memtrail/db';
import { LRUCache } from 'lru-cache';

/** A stored version's record and, when this process stored it, its blocks' symbol counts. */
export interface KnownVersion extends StoredRecord {
  /** Symbol count of every block the record places; null when read back from Postgres. */
  symbols: ReadonlyMap<string, number> | null;
}

/**
 * Record entries and block counts held in all (about 150 bytes each: some 15 MB). A 10k-symbol
 * version holds about 840, so the newest version of some 120 such targets stays here.
 */
const MAX_ENTRIES = 100_000;

/**
 * The versions this gateway stored last, by `reportId/version` (a stored record never changes).
 * The next commit of a target names one of them as its parent, so its upload finds the parent's
 * record without reading and rebuilding its chain, and knows which blocks the target holds and
 * their symbol counts without looking up every block it places (docs/query.md, "Uploads in
 * block form"). A version another process stored is read from Postgres as before.
 */
@Injectable()
export class KnownVersions {
  private readonly versions = new LRUCache<string, KnownVersion>({
    maxSize: MAX_ENTRIES,
    sizeCalculation: (v) => v.record.entries.length + (v.symbols?.size ?? 0) || 1,
  });

  /** Remembers a version once its transaction has committed. */
  remember(key: VersionKey, version: KnownVersion): void {
    this.versions.set(keyOf(key), version);
  }

  /** The version's record (null if it has none), from memory when this process stored it. */
  async read(db: Queryable, key: VersionKey): Promise<KnownVersion | null> {
    const known = this.versions.get(keyOf(key));
    if (known) return known;
    // Versions read on the way are kept too: a chain whose base is here costs one row.
    const stored = await readRecord(db, key.reportId, key.version, {
      get: (k) => this.versions.get(k),
      set: (k, v) => this.versions.set(k, { ...v, symbols: null }),
    });
    return stored && (this.versions.get(keyOf(key)) ?? { ...stored, symbols: null });
  }
}

const keyOf = (key: VersionKey) => `${key.reportId}/${key.version}`;
