import type { PublicProject } from '@memtrail/contracts';
import { createContext, useContext, type ReactNode } from 'react';
import useSWR from 'swr';
import { useCoreApi } from './api/ApiProvider.tsx';

// A public project's pages shown read-only: to signed-out visitors, and to signed-in users who
// are not its members. They get no settings, region configuration or keys.

const ReadOnlyContext = createContext<PublicProject | null>(null);

export function ReadOnlyProject({
  project,
  children,
}: {
  project: PublicProject;
  children: ReactNode;
}) {
  return <ReadOnlyContext.Provider value={project}>{children}</ReadOnlyContext.Provider>;
}

/** The public project shown read-only, or null on a member's pages. */
export function useReadOnlyProject(): PublicProject | null {
  return useContext(ReadOnlyContext);
}

/**
 * Whether a project is public, asked only when `enabled`: undefined while asking, the project
 * when it is public, null when it is not (or does not exist: the answer is the same).
 */
export function usePublicProject(
  projectId: string | undefined,
  enabled = true,
): PublicProject | null | undefined {
  const api = useCoreApi();
  const ask = enabled && projectId !== undefined;
  const { data, error } = useSWR(
    ask ? ['public-project', projectId] : null,
    () => api.getPublicProject(projectId!),
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
  if (!ask || error) return null;
  return data;
}
