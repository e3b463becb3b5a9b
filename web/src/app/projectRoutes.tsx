import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { Spinner } from '../components/Spinner.tsx';
import { useHeads, useProjects, useTargets } from '../lib/data.ts';
import { LoadError } from '../lib/loadError.ts';
import { paths } from '../lib/routes.ts';
import { useTargetRoute } from '../lib/targetRoute.ts';

// Route elements of the project pages (spec §2): a project the user does not have is an unknown
// path and goes to '/'; a project path without a target opens the first target.

/**
 * Renders the project's pages when the project is the user's. The cached list may predate a
 * project created elsewhere or shared since, so an unknown id is checked against the server
 * once before leaving. Symbol pages do not load projects (spec §4) and are not checked.
 */
export function KnownProject() {
  const { projectId } = useParams();
  const { pathname } = useLocation();
  const checks = !pathname.includes('/symbols');
  const { data: projects, refresh } = useProjects(checks);
  const known = !checks || !projects || projects.some((project) => project.id === projectId);
  const [checked, setChecked] = useState<string | undefined>();
  useEffect(() => {
    if (known || checked === projectId) return;
    void refresh()
      .catch(() => undefined)
      .finally(() => setChecked(projectId));
  }, [known, checked, projectId, refresh]);

  if (known) return <Outlet />;
  if (checked !== projectId) return <Spinner message="Loading projects..." />;
  return <Navigate to="/" replace />;
}

/** `/project/{id}`: the first target's dashboard, or the settings while no report exists. */
export function ProjectIndex() {
  const { projectId = '' } = useParams();
  const { data: targets } = useTargets(projectId);
  if (targets === undefined) return <Spinner message="Loading..." />;
  const first = targets[0]?.name;
  return (
    <Navigate to={first ? paths.dashboard(projectId, first) : paths.settings(projectId)} replace />
  );
}

/**
 * Heads that failed to load are the dashboard's data loading issue: the Dashboard Error screen
 * (whose Retry reloads them) says so, where an empty dashboard would claim there are no reports.
 */
export function DashboardLoads({ children }: { children: ReactNode }) {
  const { projectId, target } = useTargetRoute();
  const heads = useHeads(projectId, target);
  if (heads.error && !heads.data?.length) throw new LoadError(heads.error, heads.refresh);
  return children;
}
