import { projectRouteOf } from '../routes.ts';
import {
  BACKGROUND_REFRESH_KINDS,
  CLEANUP_KEEP,
  HEADS_KEY_PREFIX_LENGTH,
  type DataKind,
} from './cachePolicy.ts';
import type { DataStore } from './dataStore.ts';

// When and how the caches are tidied and refreshed (spec §4), apart from React.

/** Cleanup runs on project target pages other than symbols and compare. */
export function cleanupApplies(pathname: string): boolean {
  const { targetName } = projectRouteOf(pathname);
  return Boolean(targetName) && !pathname.includes('/symbols') && !pathname.includes('/compare');
}

/** Comparisons down to the newest 1, memory reports to the newest 2. */
export function cleanupCaches(store: DataStore) {
  for (const [kind, keep] of Object.entries(CLEANUP_KEEP) as Array<[DataKind, number]>) {
    store.trim(kind, keep);
  }
}

/** The 120 s background refresh is skipped on commit and symbol pages. */
export function backgroundRefreshApplies(pathname: string): boolean {
  return !pathname.includes('/commit/') && !pathname.includes('/symbols');
}

export const headsKey = (projectId: string, target: string) => `${projectId}:${target}`;

/** The project and target of a heads key (project ids are 36-character UUIDs). */
export function parseHeadsKey(key: string): { projectId: string; target: string } {
  return {
    projectId: key.slice(0, HEADS_KEY_PREFIX_LENGTH),
    target: key.slice(HEADS_KEY_PREFIX_LENGTH + 1),
  };
}

export type Refetchers = Record<
  'projects' | 'targets' | 'heads',
  (key: string) => Promise<unknown>
>;

/**
 * Re-fetches every projects, targets and heads entry older than half its lifetime. Failures are
 * only debug-logged: the cached data stays and the next visit tries again.
 */
export async function refreshStale(store: DataStore, refetch: Refetchers): Promise<number> {
  const jobs: Array<Promise<unknown>> = [];
  for (const kind of BACKGROUND_REFRESH_KINDS as Array<keyof Refetchers>) {
    for (const key of store.staleKeys(kind)) {
      jobs.push(
        refetch[kind](key).catch((error: unknown) =>
          console.debug(`Background refresh of ${kind} ${key} failed`, error),
        ),
      );
    }
  }
  await Promise.all(jobs);
  return jobs.length;
}
