import {
  ROLE_NAMES,
  type Role,
  sanitizeName,
  sanitizeText,
  validateEmail,
  validateProjectDescription,
  validateProjectName,
} from '@memtrail/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import useSWR from 'swr';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useProjectActions, useProjects, useTargets } from '../../lib/data.ts';
import { useOrganizationsApi } from '../../lib/organizations.ts';
import { useProjectContext } from '../../lib/store/projectContext.ts';
import { ApiKeysPanel } from './ApiKeysPanel.tsx';
import { BudgetsPanel } from './BudgetsPanel.tsx';
import { PublicAccessPanel } from './PublicAccessPanel.tsx';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Project settings: details, API key, budgets per target, public access, members, deletion. */
export function SettingsPage() {
  const { projectId = '' } = useParams();
  const { data: projects } = useProjects();
  const project = projects?.find((candidate) => candidate.id === projectId);
  const { data: targets = [] } = useTargets(projectId);
  if (!project) {
    return (
      <div className="page">
        <div className="alert alert--error">
          This project does not exist or you are not a member.
        </div>
      </div>
    );
  }
  return (
    <div className="page">
      <header className="page__header">
        <p className="eyebrow">Settings</p>
        <h1>{project.name}</h1>
      </header>
      <DetailsPanel
        key={project.updated_at}
        id={project.id}
        name={project.name}
        description={project.description ?? ''}
      />
      <ApiKeysPanel project={project} />
      <BudgetsPanel projectId={project.id} targets={targets.map((target) => target.name)} />
      <PublicAccessPanel
        id={project.id}
        targets={targets.map((target) => target.name)}
        canChange={project.role === 'admin' || project.role === 'owner'}
      />
      <MembersPanel id={project.id} />
      {project.role === 'owner' ? <DangerPanel id={project.id} name={project.name} /> : null}
    </div>
  );
}

function DetailsPanel({
  id,
  name: initialName,
  description: initialDescription,
}: {
  id: string;
  name: string;
  description: string;
}) {
  const { updateProject } = useProjectActions();
  const [name, setName] = useState(initialName);
  const [description, setDescription] = useState(initialDescription);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const nameError = validateProjectName(name);
  const descriptionError = validateProjectDescription(description);
  async function save(event: FormEvent) {
    event.preventDefault();
    if (nameError || descriptionError) return;
    try {
      await updateProject(id, {
        name: sanitizeName(name),
        description: sanitizeText(description) || null,
      });
      setStatus({ ok: true, text: 'Saved' });
    } catch (error) {
      setStatus({ ok: false, text: messageOf(error) });
    }
  }
  return (
    <section className="panel">
      <h2>Details</h2>
      <form className="form" onSubmit={(event) => void save(event)} noValidate>
        <label className={`field${nameError ? ' field--invalid' : ''}`}>
          <span>Name</span>
          <input value={name} onChange={(event) => setName(event.target.value)} />
          {nameError ? <span className="field__error">{nameError}</span> : null}
        </label>
        <label className={`field${descriptionError ? ' field--invalid' : ''}`}>
          <span>Description</span>
          <textarea
            rows={2}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
          {descriptionError ? <span className="field__error">{descriptionError}</span> : null}
        </label>
        {status ? (
          <div className={`alert ${status.ok ? 'alert--success' : 'alert--error'}`}>
            {status.text}
          </div>
        ) : null}
        <div className="form__actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={Boolean(nameError || descriptionError)}
          >
            Save changes
          </button>
        </div>
      </form>
    </section>
  );
}

function MembersPanel({ id }: { id: string }) {
  const { api } = useProjectContext();
  const {
    data: members,
    error,
    mutate,
  } = useSWR(['members', id], () => api.getMembers(id), { revalidateOnFocus: false });
  const orgs = useOrganizationsApi();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const emailError = email ? validateEmail(email) : null;
  async function invite(event: FormEvent) {
    event.preventDefault();
    if (!email || emailError) return;
    const address = email.trim().toLowerCase();
    try {
      const result = await orgs.addProjectMember(id, address, role);
      await mutate(result.members, { revalidate: false });
      setEmail('');
      setStatus({
        ok: true,
        text: result.invitation
          ? `Invitation sent to ${address}`
          : `${address} now has the ${role} role on this project`,
      });
    } catch (cause) {
      setStatus({ ok: false, text: messageOf(cause) });
    }
  }
  return (
    <section className="panel">
      <h2>Members</h2>
      {error ? <div className="alert alert--error">{messageOf(error)}</div> : null}
      <ul className="members">
        {(members ?? []).map((member) => (
          <li key={member.user_id}>
            <span>
              <strong>{member.full_name ?? member.email}</strong>
              {member.full_name ? <span className="muted"> {member.email}</span> : null}
            </span>
            <span className="tag">{member.role}</span>
            <span className="muted">
              {member.source === 'project' ? 'this project' : 'from the organization'}
            </span>
            {member.source === 'project' ? (
              <button
                type="button"
                className="button--text"
                onClick={() =>
                  void api
                    .removeMember(id, member.user_id)
                    .then((next) => mutate(next, { revalidate: false }))
                    .catch((cause: unknown) => setStatus({ ok: false, text: messageOf(cause) }))
                }
              >
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <form className="inline-form" onSubmit={(event) => void invite(event)} noValidate>
        <label className={`field${emailError ? ' field--invalid' : ''}`}>
          <span>Invite by email</span>
          <input
            type="email"
            value={email}
            placeholder="colleague@example.com"
            onChange={(event) => setEmail(event.target.value)}
          />
          {emailError ? <span className="field__error">{emailError}</span> : null}
        </label>
        <label className="field">
          <span>Role on this project</span>
          <select
            aria-label="Role on this project"
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            {ROLE_NAMES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="button button--primary"
          disabled={!email || Boolean(emailError)}
        >
          Invite
        </button>
      </form>
      {status ? (
        <div className={`alert ${status.ok ? 'alert--success' : 'alert--error'}`}>
          {status.text}
        </div>
      ) : null}
    </section>
  );
}

function DangerPanel({ id, name }: { id: string; name: string }) {
  const { deleteProject } = useProjectActions();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="panel panel--danger">
      <h2>Delete project</h2>
      <p className="muted">Removes the project, its key and all its reports for every member.</p>
      <button
        type="button"
        className="button button--danger-solid"
        onClick={() => setConfirming(true)}
      >
        Delete project
      </button>
      {confirming ? (
        <ConfirmDelete
          name={name}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            await deleteProject(id);
            void navigate('/');
          }}
        />
      ) : null}
    </section>
  );
}
