import type { ScopedMutator } from 'swr';
import { projectRouteOf } from '../routes.ts';
import { BACKGROUND_REFRESH_KINDS, CLEANUP_KEEP, type DataKind } from './cachePolicy.ts';
import { cacheKey, parseHeadsKey } from './cacheKeys.ts';
import type { DataCache } from './dataCache.ts';
import type { Fetchers } from './fetchers.ts';

// When and how the cache is tidied and refreshed (spec §4), apart from React.

/** Cleanup runs on project target pages other than symbols and compare. */
export function cleanupApplies(pathname: string): boolean {
  const { targetName } = projectRouteOf(pathname);
  return Boolean(targetName) && !pathname.includes('/symbols') && !pathname.includes('/compare');
}

/** Comparisons down to the newest 1, memory reports to the newest 2. */
export function cleanupCaches(cache: DataCache) {
  for (const [kind, keep] of Object.entries(CLEANUP_KEEP) as Array<[DataKind, number]>) {
    cache.trim(kind, keep);
  }
}

/** The 120 s background refresh is skipped on commit and symbol pages. */
export function backgroundRefreshApplies(pathname: string): boolean {
  return !pathname.includes('/commit/') && !pathname.includes('/symbols');
}

/** Fetches one entry again and stores it in the cache. */
export type Refetch = (kind: DataKind, key: string) => Promise<unknown>;

/**
 * Fetches a projects, targets or heads entry again, named by its key, and writes it through SWR
 * so hooks showing it re-render with the answer.
 */
export function backgroundRefetch(mutate: ScopedMutator, fetchers: Fetchers): Refetch {
  const fetch = (kind: DataKind, key: string): Promise<unknown> => {
    switch (kind) {
      case 'projects':
        return fetchers.projects();
      case 'targets':
        return fetchers.targets(key);
      case 'heads': {
        const { projectId, target } = parseHeadsKey(key);
        return fetchers.heads(projectId, target);
      }
      default:
        return Promise.reject(new Error(`The ${kind} cache is not refreshed in the background`));
    }
  };
  return (kind, key) => mutate(cacheKey(kind, key), fetch(kind, key), { revalidate: false });
}

/**
 * Re-fetches every projects, targets and heads entry older than half its lifetime. Failures are
 * only debug-logged: the cached data stays and the next visit tries again.
 */
export async function refreshStale(cache: DataCache, refetch: Refetch): Promise<number> {
  const jobs: Array<Promise<unknown>> = [];
  for (const kind of BACKGROUND_REFRESH_KINDS) {
    for (const key of cache.staleKeys(kind)) {
      jobs.push(
        refetch(kind, key).catch((error: unknown) =>
          console.debug(`Background refresh of ${kind} ${key} failed`, error),
        ),
      );
    }
  }
  await Promise.all(jobs);
  return jobs.length;
}
