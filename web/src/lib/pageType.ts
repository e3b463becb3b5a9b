// Analytics properties derived from the route (spec §3, §4); pure so both tests and the
// tracker use the same rules.

import { projectRouteOf } from './routes.ts';

/** Spec §4 page-type tagging, in the order the rules are listed. */
export function pageTypeOf(pathname: string): string | null {
  if (pathname === '/') return 'projects_list';
  if (pathname === '/tutorial') return 'tutorial';
  if (pathname === '/pricing') return 'pricing';
  if (pathname === '/auth') return 'auth';
  if (pathname.includes('/settings')) return 'project_settings';
  if (pathname.includes('/symbols')) return 'symbols';
  if (pathname.includes('/compare')) return 'compare';
  if (pathname.includes('/region-config')) return 'region_config';
  if (/^\/project\/[^/]+\/target\/[^/]+/.test(pathname)) return 'dashboard';
  return null;
}

/** Route-derived super properties; project ones are dropped on leaving project paths. */
export function projectPropsOf(pathname: string): { project_id?: string; target_name?: string } {
  const { projectId, targetName } = projectRouteOf(pathname);
  return {
    ...(projectId ? { project_id: projectId } : {}),
    ...(targetName ? { target_name: targetName } : {}),
  };
}
