import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useCoreApi } from '../api/ApiProvider.tsx';
import type { CoreApi, NewProject } from '../api/core.ts';
import { STORAGE_PREFIX, BACKGROUND_REFRESH_MS } from './cachePolicy.ts';
import { clearPersistedCaches, DataStore } from './dataStore.ts';
import { createLoaders, type Loaders } from './loaders.ts';
import {
  backgroundRefreshApplies,
  cleanupApplies,
  cleanupCaches,
  parseHeadsKey,
  refreshStale,
} from './maintenance.ts';

export interface ProjectContextValue {
  store: DataStore;
  api: CoreApi;
  load: Loaders;
  /** The project just created, holding its once-shown API key until cleared (spec §4). */
  justCreated: NewProject | null;
  setJustCreated(project: NewProject | null): void;
}

const ProjectContext = createContext<ProjectContextValue | null>(null);

// Persisted caches belong to one user: another account signing in on this browser starts empty.
const OWNER_KEY = `${STORAGE_PREFIX}owner`;

function storeFor(owner: string): DataStore {
  const storage = typeof localStorage === 'undefined' ? null : localStorage;
  if (storage && storage.getItem(OWNER_KEY) !== owner) {
    clearPersistedCaches(storage);
    storage.setItem(OWNER_KEY, owner);
  }
  return new DataStore({ storage });
}

/** Data stores of the signed-in app, with cache cleanup and the background refresh. */
export function ProjectProvider({ owner, children }: { owner: string; children: ReactNode }) {
  const api = useCoreApi();
  const store = useMemo(() => storeFor(owner), [owner]);
  const load = useMemo(() => createLoaders(store, api), [store, api]);
  const [justCreated, setJustCreated] = useState<NewProject | null>(null);
  const value = useMemo(
    () => ({ store, api, load, justCreated, setJustCreated }),
    [store, api, load, justCreated],
  );
  return (
    <ProjectContext.Provider value={value}>
      <CacheMaintenance store={store} load={load} />
      {children}
    </ProjectContext.Provider>
  );
}

function CacheMaintenance({ store, load }: { store: DataStore; load: Loaders }) {
  const { pathname } = useLocation();

  // Cleanup once on load and on every back/forward while on a qualifying page.
  useEffect(() => {
    if (cleanupApplies(window.location.pathname)) cleanupCaches(store);
    const onPopState = () => {
      if (cleanupApplies(window.location.pathname)) cleanupCaches(store);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [store]);

  const refreshAllowed = backgroundRefreshApplies(pathname);
  useEffect(() => {
    if (!refreshAllowed) return;
    const timer = setInterval(() => {
      void refreshStale(store, {
        projects: () => load.projects({ force: true }),
        targets: (projectId) => load.targets(projectId, { force: true }),
        heads: (key) => {
          const { projectId, target } = parseHeadsKey(key);
          return load.heads(projectId, target, { force: true });
        },
      });
    }, BACKGROUND_REFRESH_MS);
    return () => clearInterval(timer);
  }, [store, load, refreshAllowed]);

  return null;
}

export function useProjectContext(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProjects must be used within a ProjectProvider');
  return value;
}
