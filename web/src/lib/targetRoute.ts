import { useParams } from 'react-router';

/** Project id and target name of a target page (react-router has already decoded them). */
export function useTargetRoute(): { projectId: string; target: string } {
  const { projectId, targetName } = useParams();
  if (!projectId || !targetName) throw new Error('A target page was rendered without its route');
  return { projectId, target: targetName };
}

/** Colours of regions in charts, stable by position. */
export const REGION_COLORS = ['#2563eb', '#14b8a6', '#f59e0b', '#a855f7', '#ef4444', '#64748b'];
