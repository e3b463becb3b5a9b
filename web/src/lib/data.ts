import useSWR from 'swr';
import { useCoreApi } from './api/ApiProvider.tsx';
import { trackBackgroundLoad } from './backgroundLoads.ts';

// SWR keys double as cache keys; SWR shares identical in-flight requests (spec §4).

export function useProjects(enabled = true) {
  const api = useCoreApi();
  return useSWR(enabled ? 'projects' : null, () => api.getProjects());
}

export function useTargets(projectId: string | undefined) {
  const api = useCoreApi();
  return useSWR(projectId ? ['targets', projectId] : null, ([, id]) =>
    trackBackgroundLoad(() => api.getTargets(id)),
  );
}
