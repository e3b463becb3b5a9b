import { useMemo, useState, type ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { useCoreApi } from '../api/ApiProvider.tsx';
import type { NewProject } from '../api/core.ts';
import { CacheMaintenance } from './CacheMaintenance.ts';
import { cacheConfig } from './cacheConfig.ts';
import { STORAGE_PREFIX } from './cachePolicy.ts';
import { clearPersistedCaches, DataCache } from './dataCache.ts';
import { createFetchers } from './fetchers.ts';
import { ProjectContext } from './projectContext.ts';

// Persisted caches belong to one user: another account signing in on this browser starts empty.
const OWNER_KEY = `${STORAGE_PREFIX}owner`;

function cacheFor(owner: string): DataCache {
  const storage = typeof localStorage === 'undefined' ? null : localStorage;
  if (storage && storage.getItem(OWNER_KEY) !== owner) {
    clearPersistedCaches(storage);
    storage.setItem(OWNER_KEY, owner);
  }
  return new DataCache({ storage });
}

/**
 * The signed-in app's data: one SWR cache per owner, used by every SWR hook below, with the
 * cache lifetimes, cleanup and the background refresh.
 */
export function ProjectProvider({ owner, children }: { owner: string; children: ReactNode }) {
  const api = useCoreApi();
  const cache = useMemo(() => cacheFor(owner), [owner]);
  const config = useMemo(() => cacheConfig(cache), [cache]);
  const fetchers = useMemo(() => createFetchers(api), [api]);
  const [justCreated, setJustCreated] = useState<NewProject | null>(null);
  const value = useMemo(
    () => ({ cache, api, fetchers, justCreated, setJustCreated }),
    [cache, api, fetchers, justCreated],
  );
  return (
    // Keyed by owner: SWR takes a provider's cache once, when SWRConfig mounts.
    <SWRConfig key={owner} value={config}>
      <ProjectContext.Provider value={value}>
        <CacheMaintenance cache={cache} fetchers={fetchers} />
        {children}
      </ProjectContext.Provider>
    </SWRConfig>
  );
}
