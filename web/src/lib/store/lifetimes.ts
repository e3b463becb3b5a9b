import type { Middleware } from 'swr';
import { splitCacheKey } from './cacheKeys.ts';
import type { DataCache } from './dataCache.ts';

/**
 * SWR middleware for the cache lifetimes (spec §4, §9): a hook of a data kind whose entry is
 * fresh shows it without asking the server; once the entry is stale, invalidated or missing,
 * mounting the hook fetches it. A successful fetch makes the entry fresh again. Identical
 * in-flight requests stay shared by SWR's deduplication; a forced refresh fetches and writes
 * through SWR's mutate (data.ts).
 */
export function lifetimes(cache: DataCache): Middleware {
  return (useSWRNext) => (key, fetcher, config) => {
    if (typeof key !== 'string' || !fetcher || !splitCacheKey(key)) {
      return useSWRNext(key, fetcher, config);
    }
    const fetchAndStamp = (async (...args: unknown[]) => {
      const data: unknown = await fetcher(...args);
      cache.fetched(key);
      return data;
    }) as typeof fetcher;
    return useSWRNext(key, fetchAndStamp, { ...config, revalidateIfStale: !cache.isFresh(key) });
  };
}
