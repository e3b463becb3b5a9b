import { createContext, useContext } from 'react';
import type { CoreApi, NewProject } from '../api/core.ts';
import { STORE_MESSAGES } from './cachePolicy.ts';
import type { DataCache } from './dataCache.ts';
import type { Fetchers } from './fetchers.ts';

/** What the project pages share: the data cache, the API and its fetchers (ProjectProvider). */
export interface ProjectContextValue {
  cache: DataCache;
  api: CoreApi;
  fetchers: Fetchers;
  /** The project just created, holding its once-shown API key until cleared (spec §4). */
  justCreated: NewProject | null;
  setJustCreated(project: NewProject | null): void;
}

export const ProjectContext = createContext<ProjectContextValue | null>(null);

export function useProjectContext(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error(STORE_MESSAGES.outsideProvider);
  return value;
}
