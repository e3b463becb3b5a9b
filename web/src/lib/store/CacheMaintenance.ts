import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSWRConfig } from 'swr';
import { BACKGROUND_REFRESH_MS } from './cachePolicy.ts';
import type { DataCache } from './dataCache.ts';
import type { Fetchers } from './fetchers.ts';
import {
  backgroundRefetch,
  backgroundRefreshApplies,
  cleanupApplies,
  cleanupCaches,
  refreshStale,
} from './maintenance.ts';

/** Cache cleanup on load and back/forward, and the background refresh (spec §4). */
export function CacheMaintenance({ cache, fetchers }: { cache: DataCache; fetchers: Fetchers }) {
  const { pathname } = useLocation();
  const { mutate } = useSWRConfig();

  useEffect(() => {
    const cleanup = () => {
      if (cleanupApplies(window.location.pathname)) cleanupCaches(cache);
    };
    cleanup();
    window.addEventListener('popstate', cleanup);
    return () => window.removeEventListener('popstate', cleanup);
  }, [cache]);

  const refreshAllowed = backgroundRefreshApplies(pathname);
  useEffect(() => {
    if (!refreshAllowed) return;
    const refetch = backgroundRefetch(mutate, fetchers);
    const timer = setInterval(() => void refreshStale(cache, refetch), BACKGROUND_REFRESH_MS);
    return () => clearInterval(timer);
  }, [cache, fetchers, mutate, refreshAllowed]);

  return null;
}
