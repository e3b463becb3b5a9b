import type { Cache, State } from 'swr';
import { cacheKey, splitCacheKey } from './cacheKeys.ts';
import {
  BACKGROUND_REFRESH_KINDS,
  CACHE_POLICY,
  DATA_KINDS,
  STALE_FRACTION,
  STORAGE_PREFIX,
  type DataKind,
} from './cachePolicy.ts';

// SWR's cache, given to SWRConfig as its provider (spec §4, §9). Entries of the data kinds get
// a timestamp when their data is stored, count towards their kind's size cap (oldest evicted
// first) and, for persistent kinds, are kept in localStorage. Any other SWR key is held as SWR's
// own Map would hold it. Pure TypeScript so the rules are testable without a browser.

interface Stamp {
  /** When the data was stored; 0 after invalidation, so the next mount asks the server. */
  timestamp: number;
  /** Storage order, kept in localStorage so a reload keeps the eviction order. */
  addedAt: number;
}

/** One entry of a persisted table, `memtrail_cache_<kind>` = { [key]: PersistedEntry }. */
interface PersistedEntry extends Stamp {
  data: unknown;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface DataCacheOptions {
  storage?: StorageLike | null;
  now?: () => number;
}

export class DataCache implements Cache {
  private readonly states = new Map<string, State>();
  /** Stamps of the data kinds' entries that hold data, oldest stored first. */
  private readonly stamps = new Map<string, Stamp>();
  private readonly storage: StorageLike | null;
  private readonly now: () => number;
  private sequence = 0;

  constructor(options: DataCacheOptions = {}) {
    this.storage = options.storage ?? null;
    this.now = options.now ?? Date.now;
    for (const kind of DATA_KINDS) if (CACHE_POLICY[kind].persistent) this.restore(kind);
  }

  keys(): IterableIterator<string> {
    return this.states.keys();
  }

  get(swrKey: string): State | undefined {
    return this.states.get(swrKey);
  }

  /** SWR writes every state change here; new data of a data kind is stored with a timestamp. */
  set(swrKey: string, state: State): void {
    const previous = this.states.get(swrKey);
    this.states.set(swrKey, state);
    if (state.data === previous?.data) return;
    const entry = splitCacheKey(swrKey);
    if (!entry) return;
    if (state.data === undefined) this.forget(entry.kind, swrKey);
    else this.stamp(entry.kind, swrKey);
  }

  delete(swrKey: string): void {
    this.states.delete(swrKey);
    const entry = splitCacheKey(swrKey);
    if (entry) this.forget(entry.kind, swrKey);
  }

  /**
   * A fetch of `swrKey` succeeded. SWR keeps the cached object when the answer is equal to it,
   * so set() sees no new data; the entry is fresh again all the same.
   */
  fetched(swrKey: string): void {
    const entry = splitCacheKey(swrKey);
    if (entry && this.stamps.has(swrKey)) this.stamp(entry.kind, swrKey);
  }

  /** Data and timestamp of one entry of a kind. */
  entry<T>(kind: DataKind, key: string): { data: T; timestamp: number } | undefined {
    const id = cacheKey(kind, key);
    const stamp = this.stamps.get(id);
    return stamp && { data: this.states.get(id)?.data as T, timestamp: stamp.timestamp };
  }

  /** Keys of a kind's entries that hold data, oldest stored first. */
  keysOf(kind: DataKind): string[] {
    const keys: string[] = [];
    for (const id of this.stamps.keys()) {
      const entry = splitCacheKey(id);
      if (entry?.kind === kind) keys.push(entry.key);
    }
    return keys;
  }

  /**
   * Fresh: stored, settled, not invalidated and younger than its kind's lifetime (if it has one).
   */
  isFresh(swrKey: string): boolean {
    const entry = splitCacheKey(swrKey);
    const stamp = this.stamps.get(swrKey);
    if (!entry || !stamp || stamp.timestamp === 0) return false;
    const { lifetimeMs, unsettled } = CACHE_POLICY[entry.kind];
    if (unsettled?.(this.states.get(swrKey)?.data)) return false;
    return lifetimeMs === null || this.now() - stamp.timestamp < lifetimeMs;
  }

  /** Resets timestamps (one key or the whole kind) so the next mount asks the server. */
  invalidate(kind: DataKind, key?: string): void {
    this.invalidateWhere(kind, (entryKey) => key === undefined || entryKey === key);
  }

  /** Invalidates every key of a kind starting with a prefix (e.g. all heads of one project). */
  invalidatePrefix(kind: DataKind, prefix: string): void {
    this.invalidateWhere(kind, (entryKey) => entryKey.startsWith(prefix));
  }

  /** Keeps the `count` most recently stored entries of a kind (spec §4 cache cleanup). */
  trim(kind: DataKind, count: number): void {
    const keys = this.keysOf(kind);
    for (const key of keys.slice(0, Math.max(0, keys.length - count))) {
      this.states.delete(cacheKey(kind, key));
      this.stamps.delete(cacheKey(kind, key));
    }
    this.persist(kind);
  }

  /** Keys whose data is older than half the kind's lifetime, for the background refresh. */
  staleKeys(kind: DataKind): string[] {
    const { lifetimeMs } = CACHE_POLICY[kind];
    if (lifetimeMs === null || !BACKGROUND_REFRESH_KINDS.includes(kind)) return [];
    const threshold = lifetimeMs * STALE_FRACTION;
    return this.keysOf(kind).filter(
      (key) => this.now() - this.stamps.get(cacheKey(kind, key))!.timestamp > threshold,
    );
  }

  private stamp(kind: DataKind, swrKey: string) {
    // Re-inserted, so the Map's order stays oldest stored first.
    this.stamps.delete(swrKey);
    this.stamps.set(swrKey, { timestamp: this.now(), addedAt: ++this.sequence });
    const { cap } = CACHE_POLICY[kind];
    if (cap !== null) this.trim(kind, cap);
    else this.persist(kind);
  }

  private forget(kind: DataKind, swrKey: string) {
    if (this.stamps.delete(swrKey)) this.persist(kind);
  }

  private invalidateWhere(kind: DataKind, matches: (key: string) => boolean) {
    for (const key of this.keysOf(kind)) {
      if (matches(key)) this.stamps.get(cacheKey(kind, key))!.timestamp = 0;
    }
    this.persist(kind);
  }

  private persist(kind: DataKind) {
    if (!this.storage || !CACHE_POLICY[kind].persistent) return;
    const table: Record<string, PersistedEntry> = {};
    for (const key of this.keysOf(kind)) {
      const id = cacheKey(kind, key);
      table[key] = { data: this.states.get(id)?.data, ...this.stamps.get(id)! };
    }
    try {
      this.storage.setItem(STORAGE_PREFIX + kind, JSON.stringify(table));
    } catch (error) {
      // A full or blocked storage only costs the next page load a fetch.
      console.warn(`Could not persist the ${kind} cache`, error);
    }
  }

  private restore(kind: DataKind) {
    if (!this.storage) return;
    try {
      const raw = this.storage.getItem(STORAGE_PREFIX + kind);
      const saved = raw ? (JSON.parse(raw) as Record<string, Partial<PersistedEntry> | null>) : {};
      const entries = Object.entries(saved).filter(
        (pair): pair is [string, PersistedEntry] =>
          typeof pair[1]?.timestamp === 'number' && typeof pair[1].addedAt === 'number',
      );
      entries.sort((a, b) => a[1].addedAt - b[1].addedAt);
      for (const [key, { data, timestamp, addedAt }] of entries) {
        this.states.set(cacheKey(kind, key), { data });
        this.stamps.set(cacheKey(kind, key), { timestamp, addedAt });
        this.sequence = Math.max(this.sequence, addedAt);
      }
    } catch (error) {
      console.warn(`Ignoring an unreadable ${kind} cache`, error);
      this.storage.removeItem(STORAGE_PREFIX + kind);
    }
  }
}

/** Removes every persisted cache table (another user must not see this data). */
export function clearPersistedCaches(storage: StorageLike) {
  for (const kind of DATA_KINDS) storage.removeItem(STORAGE_PREFIX + kind);
}
