import { ROLE_NAMES, validateEmail, type Organization, type Role } from '@memtrail/contracts';
import { useState, type FormEvent } from 'react';

import useSWR from 'swr';
import { ApiKeyReveal } from '../../components/ApiKeyReveal.tsx';
import { useAuth } from '../../lib/auth/AuthProvider.tsx';
import { formatDate } from '../../lib/format.ts';
import { useOrganizations, useOrganizationsApi } from '../../lib/organizations.ts';
import { KeyTable } from '../../components/KeyTable.tsx';
import { AuditPanel } from './AuditPanel.tsx';
import { SsoPanel } from './SsoPanel.tsx';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const manages = (role: Role) => role === 'owner' || role === 'admin';

/** `/organization`: the organisation chosen in the header: members, invitations, tokens, SSO, audit. */
export function OrganizationPage() {
  const { data: organizations, chosen } = useOrganizations();
  if (!organizations) return <div className="page">Loading...</div>;
  if (!chosen) {
    return (
      <div className="page">
        <div className="empty">
          <h2>Choose an organization</h2>
          <p>Pick one in the header to see its members and settings.</p>
          <CreateOrganization />
        </div>
      </div>
    );
  }
  return (
    <div className="page">
      <header className="page__header">
        <p className="eyebrow">Organization</p>
        <h1>{chosen.name}</h1>
        <p className="page__sub">
          Your role: <span className="tag">{chosen.role}</span> · {chosen.project_count} projects
        </p>
      </header>
      <MembersPanel organization={chosen} />
      {manages(chosen.role) ? <InvitationsPanel organization={chosen} /> : null}
      {chosen.role === 'owner' ? <TokensPanel organization={chosen} /> : null}
      {chosen.role === 'owner' ? <SsoPanel organization={chosen} /> : null}
      {manages(chosen.role) ? <AuditPanel organization={chosen} /> : null}
      <CreateOrganization />
    </div>
  );
}

function CreateOrganization() {
  const orgs = useOrganizationsApi();
  const { mutate } = useOrganizations();
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  async function create(event: FormEvent) {
    event.preventDefault();
    try {
      await orgs.createOrganization(name.trim());
      setName('');
      await mutate();
    } catch (error) {
      setFailure(messageOf(error));
    }
  }
  return (
    <section className="panel">
      <h2>New organization</h2>
      <form className="inline-form" onSubmit={(event) => void create(event)}>
        <label className="field">
          <span>Organization name</span>
          <input value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" className="button button--primary" disabled={!name.trim()}>
          Create organization
        </button>
      </form>
      {failure ? <div className="alert alert--error">{failure}</div> : null}
    </section>
  );
}

function MembersPanel({ organization }: { organization: Organization }) {
  const orgs = useOrganizationsApi();
  const { user } = useAuth();
  const { data: members, mutate } = useSWR(['org-members', organization.id], () =>
    orgs.members(organization.id),
  );
  const [failure, setFailure] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      setFailure(null);
      await mutate();
    } catch (error) {
      setFailure(messageOf(error));
    }
  };
  return (
    <section className="panel">
      <h2>Members</h2>
      <table className="table">
        <thead>
          <tr>
            <th>Member</th>
            <th>Role</th>
            <th>Joined</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(members ?? []).map((member) => (
            <tr key={member.user_id}>
              <td>
                {member.full_name ?? member.email}
                {member.full_name ? <span className="muted"> {member.email}</span> : null}
              </td>
              <td>
                {manages(organization.role) ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    onChange={(event) =>
                      void act(() =>
                        orgs.setRole(organization.id, member.user_id, event.target.value as Role),
                      )
                    }
                  >
                    {ROLE_NAMES.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="tag">{member.role}</span>
                )}
                {member.source === 'sso' ? <span className="muted"> via SSO</span> : null}
              </td>
              <td>{formatDate(member.created_at)}</td>
              <td>
                {manages(organization.role) || member.email === user?.email ? (
                  <button
                    type="button"
                    className="button button--ghost button--danger"
                    onClick={() =>
                      void act(() => orgs.removeMember(organization.id, member.user_id))
                    }
                  >
                    {member.email === user?.email ? 'Leave' : 'Remove'}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {failure ? <div className="alert alert--error">{failure}</div> : null}
    </section>
  );
}

function InvitationsPanel({ organization }: { organization: Organization }) {
  const orgs = useOrganizationsApi();
  const { data: invitations, mutate } = useSWR(['org-invitations', organization.id], () =>
    orgs.invitations(organization.id),
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const emailError = email ? validateEmail(email) : null;
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setStatus({ ok: true, text: done });
      await mutate();
    } catch (error) {
      setStatus({ ok: false, text: messageOf(error) });
    }
  };
  async function invite(event: FormEvent) {
    event.preventDefault();
    if (!email || emailError) return;
    const address = email.trim().toLowerCase();
    await act(() => orgs.invite(organization.id, address, role), `Invitation sent to ${address}`);
    setEmail('');
  }
  return (
    <section className="panel">
      <h2>Invitations</h2>
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
          <span>Role</span>
          <select
            aria-label="Role"
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            {ROLE_NAMES.filter((r) => r !== 'owner' || organization.role === 'owner').map((r) => (
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
          Send invitation
        </button>
      </form>
      {status ? (
        <div className={`alert ${status.ok ? 'alert--success' : 'alert--error'}`}>
          {status.text}
        </div>
      ) : null}
      <table className="table">
        <thead>
          <tr>
            <th>Email</th>
            <th>Role</th>
            <th>Status</th>
            <th>Expires</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(invitations ?? []).map((invitation) => (
            <tr key={invitation.id}>
              <td>{invitation.email}</td>
              <td>
                {invitation.role}
                {invitation.project_id ? <span className="muted"> (one project)</span> : null}
              </td>
              <td>
                <span className="tag">{invitation.status}</span>
              </td>
              <td>{formatDate(invitation.expires_at)}</td>
              <td>
                {invitation.status === 'pending' || invitation.status === 'expired' ? (
                  <>
                    <button
                      type="button"
                      className="button button--ghost"
                      onClick={() =>
                        void act(
                          () => orgs.resendInvitation(organization.id, invitation.id),
                          `Invitation sent again to ${invitation.email}`,
                        )
                      }
                    >
                      Resend
                    </button>
                    <button
                      type="button"
                      className="button button--ghost button--danger"
                      onClick={() =>
                        void act(
                          () => orgs.revokeInvitation(organization.id, invitation.id),
                          `Invitation to ${invitation.email} revoked`,
                        )
                      }
                    >
                      Revoke
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function TokensPanel({ organization }: { organization: Organization }) {
  const orgs = useOrganizationsApi();
  const { data: tokens, mutate } = useSWR(['org-tokens', organization.id], () =>
    orgs.tokens(organization.id),
  );
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  async function create(event: FormEvent) {
    event.preventDefault();
    try {
      setCreated((await orgs.createToken(organization.id, name.trim())).api_key);
      setName('');
      await mutate();
    } catch (error) {
      setFailure(messageOf(error));
    }
  }
  return (
    <section className="panel">
      <h2>CI tokens</h2>
      <p className="muted">
        Upload to any project of the organization; each upload names its project in the
        X-Memtrail-Project header (id or name).
      </p>
      {created ? <ApiKeyReveal apiKey={created} onDone={() => setCreated(null)} /> : null}
      <form className="inline-form" onSubmit={(event) => void create(event)}>
        <label className="field">
          <span>Token name</span>
          <input value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" className="button button--primary" disabled={!name.trim()}>
          Create token
        </button>
      </form>
      {failure ? <div className="alert alert--error">{failure}</div> : null}
      <KeyTable
        keys={tokens ?? []}
        onRevoke={async (id) => {
          await orgs.revokeToken(organization.id, id);
          await mutate();
        }}
      />
    </section>
  );
}
