import {
  BACKGROUND_REFRESH_KINDS,
  CACHE_POLICY,
  DATA_KINDS,
  STALE_FRACTION,
  STORAGE_PREFIX,
  type DataKind,
} from './cachePolicy.ts';

// The cache behind every data hook (spec §4): one keyed table per data kind with timestamps,
// lifetimes, size caps, localStorage persistence, invalidation, forced refresh, shared in-flight
// loads and a loading flag plus error text per kind. Pure TypeScript so the rules are testable
// without a browser; React subscribes through subscribe()/version().

export interface CacheEntry<T = unknown> {
  data: T;
  /** When the data was fetched; 0 after invalidation, so the next read goes to the server. */
  timestamp: number;
  /** Insertion order for eviction and cleanup (newest kept). */
  addedAt: number;
}

export interface KindStatus {
  loading: boolean;
  error: string | null;
}

export interface LoadOptions {
  /** Bypass a fresh cache entry (spec §4 forced refresh). */
  force?: boolean;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface DataStoreOptions {
  storage?: StorageLike | null;
  now?: () => number;
}

export class DataStore {
  private readonly tables = new Map<DataKind, Map<string, CacheEntry>>();
  private readonly status = new Map<DataKind, { inFlight: number; error: string | null }>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly listeners = new Set<() => void>();
  private readonly storage: StorageLike | null;
  private readonly now: () => number;
  private sequence = 0;
  private revision = 0;

  constructor(options: DataStoreOptions = {}) {
    this.storage = options.storage ?? null;
    this.now = options.now ?? Date.now;
    for (const kind of DATA_KINDS) {
      this.tables.set(kind, this.restore(kind));
      this.status.set(kind, { inFlight: 0, error: null });
    }
  }

  get<T>(kind: DataKind, key: string): CacheEntry<T> | undefined {
    return this.table(kind).get(key) as CacheEntry<T> | undefined;
  }

  keys(kind: DataKind): string[] {
    return [...this.table(kind).keys()];
  }

  /** Fresh: present, not invalidated and younger than the kind's lifetime (if it has one). */
  isFresh(kind: DataKind, key: string): boolean {
    const entry = this.get(kind, key);
    if (!entry || entry.timestamp === 0) return false;
    const { lifetimeMs } = CACHE_POLICY[kind];
    return lifetimeMs === null || this.now() - entry.timestamp < lifetimeMs;
  }

  set<T>(kind: DataKind, key: string, data: T): void {
    const table = this.table(kind);
    table.delete(key);
    table.set(key, { data, timestamp: this.now(), addedAt: ++this.sequence });
    const { cap } = CACHE_POLICY[kind];
    if (cap !== null) this.keepNewest(kind, cap, false);
    this.changed(kind);
  }

  /** Resets timestamps (one key or the whole kind) so the next load asks the server. */
  invalidate(kind: DataKind, key?: string): void {
    const table = this.table(kind);
    const entries = key === undefined ? [...table.values()] : [table.get(key)];
    for (const entry of entries) if (entry) entry.timestamp = 0;
    this.changed(kind);
  }

  /** Invalidates every key starting with a prefix (e.g. all heads of one project). */
  invalidatePrefix(kind: DataKind, prefix: string): void {
    for (const [key, entry] of this.table(kind)) if (key.startsWith(prefix)) entry.timestamp = 0;
    this.changed(kind);
  }

  remove(kind: DataKind, key: string): void {
    if (this.table(kind).delete(key)) this.changed(kind);
  }

  /** Keeps the `count` most recently added entries of a kind (spec §4 cache cleanup). */
  trim(kind: DataKind, count: number): void {
    this.keepNewest(kind, count, true);
  }

  /** Keys whose data is older than half the kind's lifetime, for the background refresh. */
  staleKeys(kind: DataKind): string[] {
    const { lifetimeMs } = CACHE_POLICY[kind];
    if (lifetimeMs === null || !BACKGROUND_REFRESH_KINDS.includes(kind)) return [];
    const threshold = lifetimeMs * STALE_FRACTION;
    return this.keys(kind).filter((key) => {
      const entry = this.get(kind, key);
      return entry !== undefined && this.now() - entry.timestamp > threshold;
    });
  }

  kindStatus(kind: DataKind): KindStatus {
    const status = this.status.get(kind)!;
    return { loading: status.inFlight > 0, error: status.error };
  }

  /**
   * Serves a fresh entry from the cache, otherwise fetches once however many callers ask at the
   * same time. Success stores the data with a timestamp; failure keeps the message for the kind
   * and rethrows.
   */
  load<T>(kind: DataKind, key: string, fetch: () => Promise<T>, options: LoadOptions = {}) {
    if (!options.force && this.isFresh(kind, key)) {
      return Promise.resolve(this.get<T>(kind, key)!.data);
    }
    const flightKey = `${kind}\u0000${key}`;
    const shared = this.inFlight.get(flightKey);
    if (shared) return shared as Promise<T>;

    const status = this.status.get(kind)!;
    status.inFlight++;
    status.error = null;
    this.changed(kind, false);
    const promise = (async () => {
      try {
        const data = await fetch();
        this.set(kind, key, data);
        return data;
      } catch (error) {
        status.error = error instanceof Error ? error.message : String(error);
        throw error;
      } finally {
        status.inFlight--;
        this.inFlight.delete(flightKey);
        this.changed(kind, false);
      }
    })();
    this.inFlight.set(flightKey, promise);
    return promise;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Changes on every mutation, for useSyncExternalStore snapshots. */
  version(): number {
    return this.revision;
  }

  private keepNewest(kind: DataKind, count: number, notify: boolean) {
    const table = this.table(kind);
    const oldestFirst = [...table.entries()].sort((a, b) => a[1].addedAt - b[1].addedAt);
    const excess = oldestFirst.length - count;
    if (excess <= 0) return;
    for (const [key] of oldestFirst.slice(0, excess)) table.delete(key);
    if (notify) this.changed(kind);
  }

  private table(kind: DataKind): Map<string, CacheEntry> {
    const table = this.tables.get(kind);
    if (!table) throw new Error(`Unknown data kind ${kind}`);
    return table;
  }

  private changed(kind: DataKind, persist = true) {
    this.revision++;
    if (persist) this.persist(kind);
    for (const listener of this.listeners) listener();
  }

  private persist(kind: DataKind) {
    if (!this.storage || !CACHE_POLICY[kind].persistent) return;
    const table = Object.fromEntries(this.table(kind));
    try {
      this.storage.setItem(STORAGE_PREFIX + kind, JSON.stringify(table));
    } catch (error) {
      // A full or blocked storage only costs the next page load a fetch.
      console.warn(`Could not persist the ${kind} cache`, error);
    }
  }

  private restore(kind: DataKind): Map<string, CacheEntry> {
    const table = new Map<string, CacheEntry>();
    if (!this.storage || !CACHE_POLICY[kind].persistent) return table;
    try {
      const raw = this.storage.getItem(STORAGE_PREFIX + kind);
      const saved = raw ? (JSON.parse(raw) as Record<string, CacheEntry>) : {};
      for (const [key, entry] of Object.entries(saved)) {
        if (typeof entry?.timestamp !== 'number') continue;
        this.sequence = Math.max(this.sequence, entry.addedAt ?? 0);
        table.set(key, entry);
      }
    } catch (error) {
      console.warn(`Ignoring an unreadable ${kind} cache`, error);
      this.storage.removeItem(STORAGE_PREFIX + kind);
    }
    return table;
  }
}

/** Removes every persisted cache table (sign-out: another user must not see this data). */
export function clearPersistedCaches(storage: StorageLike) {
  for (const kind of DATA_KINDS) storage.removeItem(STORAGE_PREFIX + kind);
}
