import {
  sanitizeName,
  sanitizeText,
  validateProjectDescription,
  validateProjectName,
} from '@memtrail/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiKeyReveal } from '../components/ApiKeyReveal.tsx';
import { ConfirmDelete } from '../components/ConfirmDelete.tsx';
import { FavouriteStar, ListTools, Pager } from '../components/ListTools.tsx';
import { Modal } from '../components/Modal.tsx';
import type { Project } from '../lib/api/core.ts';
import { useProjectActions, useProjects, useTargets } from '../lib/data.ts';
import { formatDate } from '../lib/format.ts';
import { useChosenOrganization, useOrganizations } from '../lib/organizations.ts';
import { paths } from '../lib/routes.ts';
import { useProjectContext } from '../lib/store/projectContext.ts';

const PAGE_SIZE = 20;

/**
 * The organisation chosen in the header, known from the projects themselves so the list does not
 * wait for the organisations call; a choice the user no longer belongs to counts as none.
 */
function useChosenOrganizationOf(projects: Project[]): { id: string; name: string } | null {
  const id = useChosenOrganization();
  const { data: organizations } = useOrganizations();
  if (!id) return null;
  const known = organizations?.find((o) => o.id === id);
  if (organizations && !known) return null;
  const name = known?.name ?? projects.find((p) => p.organization_id === id)?.organization_name;
  return { id, name: name ?? '' };
}
/** Target chips shown per project; the project's targets page lists them all. */
const TARGET_CHIPS = 8;

/**
 * Signed-in home: the projects of the organisation chosen in the header (or all), favourites
 * first, searched and shown a page at a time; creating one (key shown once) and deleting.
 */
export function ProjectsPage() {
  const { data: all = [] } = useProjects();
  const chosen = useChosenOrganizationOf(all);
  const chosenId = chosen?.id ?? null;
  const { justCreated } = useProjectContext();
  const { clearJustCreated } = useProjectActions();
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useState('');
  const [favouritesOnly, setFavouritesOnly] = useState(false);
  const [offset, setOffset] = useState(0);
  const matching = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return all
      .filter((p) => !chosenId || p.organization_id === chosenId)
      .filter((p) => !favouritesOnly || p.favourite)
      .filter(
        (p) =>
          !needle ||
          p.name.toLowerCase().includes(needle) ||
          (p.description ?? '').toLowerCase().includes(needle),
      )
      .sort((a, b) => Number(b.favourite) - Number(a.favourite));
  }, [all, chosenId, search, favouritesOnly]);
  // A page past the end (after a delete or a narrower search) shows the last one.
  const start = Math.min(
    offset,
    Math.max(0, Math.ceil(matching.length / PAGE_SIZE) - 1) * PAGE_SIZE,
  );
  const projects = matching.slice(start, start + PAGE_SIZE);

  return (
    <div className="page">
      <header className="page__header page__header--row">
        <div>
          <h1>Projects</h1>
          <p className="page__sub">Firmware projects whose memory reports you track.</p>
        </div>
        <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
          New project
        </button>
      </header>
      {justCreated?.api_key ? (
        <div className="panel panel--accent">
          <h2>Project “{justCreated.name}” created</h2>
          <ApiKeyReveal apiKey={justCreated.api_key} onDone={clearJustCreated} />
        </div>
      ) : null}
      {all.length > 0 ? (
        <ListTools
          label="projects"
          search={search}
          onSearch={(value) => {
            setSearch(value);
            setOffset(0);
          }}
          favouritesOnly={favouritesOnly}
          onFavouritesOnly={(value) => {
            setFavouritesOnly(value);
            setOffset(0);
          }}
          count={`${matching.length} project${matching.length === 1 ? '' : 's'}${chosen ? ` in ${chosen.name}` : ''}`}
        />
      ) : null}
      {all.length === 0 ? (
        <div className="empty">
          <h2>No projects yet</h2>
          <p>
            Create a project, then follow the <Link to="/tutorial">tutorial</Link> to upload your
            first memory report from CI.
          </p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => setCreating(true)}
          >
            Create your first project
          </button>
        </div>
      ) : (
        <>
          <ul className="project-list">
            {projects.map((project) => (
              <ProjectRow key={project.id} project={project} />
            ))}
          </ul>
          <Pager
            label="Project pages"
            offset={start}
            limit={PAGE_SIZE}
            total={matching.length}
            onOffset={setOffset}
          />
        </>
      )}
      {creating ? <CreateProjectDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}

function CreateProjectDialog({ onClose }: { onClose(): void }) {
  const { createProject } = useProjectActions();
  const { chosen } = useOrganizations();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const nameError = touched ? validateProjectName(name) : null;
  const descriptionError = validateProjectDescription(description);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (validateProjectName(name) || descriptionError) return;
    setBusy(true);
    setFailure(null);
    try {
      await createProject(sanitizeName(name), sanitizeText(description), chosen?.id);
      onClose();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title="New project" onClose={onClose}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <label className={`field${nameError ? ' field--invalid' : ''}`}>
          <span>Name</span>
          <input
            value={name}
            autoFocus
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={Boolean(nameError)}
            placeholder="e.g. sensor-node firmware"
          />
          {nameError ? <span className="field__error">{nameError}</span> : null}
        </label>
        <label className={`field${descriptionError ? ' field--invalid' : ''}`}>
          <span>Description (optional)</span>
          <textarea
            value={description}
            rows={3}
            onChange={(event) => setDescription(event.target.value)}
          />
          {descriptionError ? <span className="field__error">{descriptionError}</span> : null}
        </label>
        {failure ? <div className="alert alert--error">{failure}</div> : null}
        <div className="form__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={busy || Boolean(nameError || descriptionError)}
          >
            {busy ? 'Processing...' : 'Create project'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function ProjectRow({ project }: { project: Project }) {
  const { data: targets, refresh: refreshTargets } = useTargets(project.id);
  const { deleteProject, setFavourite } = useProjectActions();
  const [confirming, setConfirming] = useState(false);
  const first = targets?.[0]?.name;
  return (
    <li className="project-row">
      <div className="project-row__main">
        <h2>
          <FavouriteStar
            on={project.favourite}
            onToggle={() => void setFavourite(project.id, !project.favourite)}
          />{' '}
          {first ? (
            <Link to={paths.dashboard(project.id, first)}>{project.name}</Link>
          ) : (
            project.name
          )}
        </h2>
        {project.description ? <p>{project.description}</p> : null}
        <p className="project-row__targets">
          {targets === undefined ? (
            'Loading targets…'
          ) : targets.length === 0 ? (
            <>
              No reports uploaded yet{' '}
              <button type="button" className="button--text" onClick={() => void refreshTargets()}>
                Check again
              </button>
            </>
          ) : (
            <>
              {targets.slice(0, TARGET_CHIPS).map((target) => (
                <Link
                  key={target.name}
                  className="chip"
                  to={paths.dashboard(project.id, target.name)}
                >
                  {target.name}
                </Link>
              ))}
              {targets.length > TARGET_CHIPS ? (
                <Link className="chip chip--more" to={paths.targets(project.id)}>
                  all {targets.length} targets
                </Link>
              ) : null}
            </>
          )}
        </p>
      </div>
      <span className="project-row__meta">
        {project.organization_name} · {project.role} · Created {formatDate(project.created_at)}
      </span>
      <div className="project-row__actions">
        <Link to={paths.settings(project.id)} className="button button--ghost">
          Settings
        </Link>
        {project.role === 'owner' ? (
          <button
            type="button"
            className="button button--ghost button--danger"
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        ) : null}
      </div>
      {confirming ? (
        <ConfirmDelete
          name={project.name}
          onCancel={() => setConfirming(false)}
          onConfirm={() => deleteProject(project.id)}
        />
      ) : null}
    </li>
  );
}
