import { useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, Outlet, useLocation, useParams } from 'react-router';
import { Spinner } from '../components/Spinner.tsx';
import { ReadOnlyLayout } from './layouts.tsx';
import { useHeads, useProjects, useTargets } from '../lib/data.ts';
import { LoadError } from '../lib/loadError.ts';
import { ReadOnlyProject, usePublicProject, useReadOnlyProject } from '../lib/readOnlyProject.tsx';
import { paths, projectRouteOf } from '../lib/routes.ts';
import { ProjectProvider } from '../lib/store/ProjectProvider.tsx';
import { rememberReturn } from '../lib/returnTo.ts';
import { useTargetRoute } from '../lib/targetRoute.ts';

// Route elements of the project pages (spec §2): a project the user does not have is an unknown
// path and goes to '/', unless it is public (shown read-only, signed in or out); a project path
// without a target opens the first target.

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

  // Someone else's project may be public: SharedProject then shows its pages read-only.
  const shared = usePublicProject(projectId, !known && checked === projectId);

  if (known) return <Outlet />;
  if (checked !== projectId || shared === undefined) {
    return <Spinner message="Loading projects..." />;
  }
  return shared ? <Outlet /> : <Navigate to="/" replace />;
}

/**
 * Signed in, around the whole shell (its side menu included): a project in the path that is not
 * among the user's projects but is public is shown read-only.
 */
export function SharedProject({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { projectId } = projectRouteOf(pathname);
  const { data: projects } = useProjects(Boolean(projectId) && !pathname.includes('/symbols'));
  const stranger =
    projectId !== undefined &&
    projects !== undefined &&
    !projects.some((project) => project.id === projectId);
  const shared = usePublicProject(projectId, stranger);
  return shared ? <ReadOnlyProject project={shared}>{children}</ReadOnlyProject> : children;
}

/**
 * Signed out, a path the visitor may not see goes to the home page (spec §2); a project page (a
 * shared link) is remembered first, to be opened once the visitor has signed in.
 */
export function HomeRemembering() {
  const { pathname, search, hash } = useLocation();
  if (pathname.startsWith('/project/')) rememberReturn(`${pathname}${search}${hash}`);
  return <Navigate to="/" replace />;
}

/**
 * Signed out, `/project/{id}/…` shows a public project's pages, read-only, in the app's shell;
 * any other project is an unknown path and goes to '/' (spec §2). Needs AnonymousApiProvider.
 */
export function PublicProjectGate() {
  const { projectId } = useParams();
  const project = usePublicProject(projectId);
  if (project === undefined) return <Spinner message="Loading..." />;
  if (!project) return <HomeRemembering />;
  return (
    <ReadOnlyProject project={project}>
      <ProjectProvider owner="public">
        <ReadOnlyLayout />
      </ProjectProvider>
    </ReadOnlyProject>
  );
}

/** Settings and region configuration: a project shown read-only opens its first target. */
export function MembersOnly({ children }: { children: ReactNode }) {
  const { projectId = '' } = useParams();
  return useReadOnlyProject() ? <Navigate to={paths.project(projectId)} replace /> : children;
}

/**
 * Renders a target's pages when the project has that target. The cached list may predate the
 * target's first upload, so an unknown name is checked against the server once; then the page
 * says the target does not exist (a Retry could not help) and lists the project's targets.
 */
export function KnownTarget() {
  const { projectId = '', targetName = '' } = useParams();
  const { data: targets, refresh } = useTargets(projectId);
  const known = !targets || targets.some((target) => target.name === targetName);
  const [checked, setChecked] = useState<string | undefined>();
  const key = `${projectId}/${targetName}`;
  useEffect(() => {
    if (known || checked === key) return;
    void refresh()
      .catch(() => undefined)
      .finally(() => setChecked(key));
  }, [known, checked, key, refresh]);

  if (known) return <Outlet />;
  if (checked !== key) return <Spinner message="Loading..." />;
  return (
    <div className="page">
      <div className="empty" role="alert">
        <h1>No target named “{targetName}”</h1>
        <p>
          This project has no target of that name: no report has been uploaded for it, or the link
          is mistyped.
        </p>
        {targets?.length ? (
          <p>
            Its targets:{' '}
            {targets.map((target) => (
              <Link key={target.name} className="chip" to={paths.dashboard(projectId, target.name)}>
                {target.name}
              </Link>
            ))}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** `/project/{id}`: the first target's dashboard, or the settings while no report exists. */
export function ProjectIndex() {
  const { projectId = '' } = useParams();
  const readOnly = useReadOnlyProject();
  const { data: targets } = useTargets(projectId);
  if (targets === undefined) return <Spinner message="Loading..." />;
  const first = targets[0]?.name;
  if (!first && readOnly) {
    return (
      <div className="page">
        <div className="empty">
          <h2>No reports yet</h2>
          <p>{readOnly.name} has not uploaded a memory report.</p>
        </div>
      </div>
    );
  }
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
