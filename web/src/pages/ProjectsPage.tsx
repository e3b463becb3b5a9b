import { Link } from 'react-router';
import { useProjects, useTargets } from '../lib/data.ts';
import { paths } from '../lib/routes.ts';
import type { Project } from '../lib/api/core.ts';

/** Signed-in home: the user's projects (GET /api/projects). Creating projects comes with settings. */
export function ProjectsPage() {
  const { data: projects = [] } = useProjects();
  return (
    <div className="page">
      <header className="page__header">
        <h1>Projects</h1>
      </header>
      {projects.length === 0 ? (
        <div className="empty">
          <h2>No projects yet</h2>
          <p>
            Projects appear here once created. The <Link to="/tutorial">tutorial</Link> shows how to
            upload your first memory report.
          </p>
        </div>
      ) : (
        <ul className="project-list">
          {projects.map((project) => (
            <ProjectRow key={project.id} project={project} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ProjectRow({ project }: { project: Project }) {
  const { data: targets } = useTargets(String(project.id));
  const first = targets?.[0]?.name;
  return (
    <li className="project-row">
      <div>
        <h2>
          {first ? (
            <Link to={paths.dashboard(String(project.id), first)}>{project.name}</Link>
          ) : (
            project.name
          )}
        </h2>
        {project.description ? <p>{project.description}</p> : null}
      </div>
      <span className="project-row__meta">
        {targets === undefined ? '…' : `${targets.length} target${targets.length === 1 ? '' : 's'}`}
      </span>
      <Link to={paths.settings(String(project.id))} className="button button--ghost">
        Settings
      </Link>
    </li>
  );
}
