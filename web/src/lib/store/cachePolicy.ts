// Cache rules of the data stores (spec §4, §9): how long each kind stays fresh, how many entries
// it keeps (oldest evicted first) and whether it survives a reload in localStorage.

export type DataKind =
  'projects' | 'targets' | 'heads' | 'commits' | 'memoryReports' | 'commitMessages' | 'comparisons';

export interface KindPolicy {
  /** Milliseconds an entry is served without asking the server; null = never expires. */
  lifetimeMs: number | null;
  /** Entries kept; null = unlimited. */
  cap: number | null;
  persistent: boolean;
  /** Data that is not final yet: never fresh, so every use asks the server again. */
  unsettled?: (data: unknown) => boolean;
}

/** A memory report still being ingested (its page polls until it is done). */
export const isPendingReport = (data: unknown) =>
  (data as { report?: { status?: string } } | null)?.report?.status === 'pending';

const MINUTE = 60_000;

export const CACHE_POLICY: Record<DataKind, KindPolicy> = {
  projects: { lifetimeMs: 30 * MINUTE, cap: null, persistent: true },
  targets: { lifetimeMs: 10 * MINUTE, cap: null, persistent: true },
  heads: { lifetimeMs: 5 * MINUTE, cap: null, persistent: true },
  commits: { lifetimeMs: 60 * MINUTE, cap: null, persistent: true },
  memoryReports: { lifetimeMs: null, cap: 5, persistent: false, unsettled: isPendingReport },
  commitMessages: { lifetimeMs: null, cap: 20, persistent: false },
  comparisons: { lifetimeMs: null, cap: 3, persistent: false },
};

export const DATA_KINDS = Object.keys(CACHE_POLICY) as DataKind[];

/** Kinds the background refresh re-fetches, and how often it looks (spec §4, §9). */
export const BACKGROUND_REFRESH_KINDS: readonly DataKind[] = ['projects', 'targets', 'heads'];
export const BACKGROUND_REFRESH_MS = 120_000;
/** An entry is refreshed in the background once older than this share of its lifetime. */
export const STALE_FRACTION = 0.5;

/** Cleanup on load and back/forward: entries kept per kind (spec §4). */
export const CLEANUP_KEEP: Partial<Record<DataKind, number>> = { comparisons: 1, memoryReports: 2 };

/**
 * Heads are keyed `<projectId>:<target>`; project ids are 36-character UUIDs, so the first 36
 * characters of a heads key name its project (spec §9 "heads key prefix length 36").
 */
export const HEADS_KEY_PREFIX_LENGTH = 36;

export const STORAGE_PREFIX = 'memtrail_cache_';

export const STORE_MESSAGES = {
  noTargets: 'No targets found for this project',
  outsideProvider: 'useProjects must be used within a ProjectProvider',
} as const;
