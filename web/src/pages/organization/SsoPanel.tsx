import { ROLE_NAMES, type Organization, type Role, type SsoConnection } from '@memtrail/contracts';
import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { useOrganizationsApi } from '../../lib/organizations.ts';

interface Form {
  issuer: string;
  client_id: string;
  client_secret: string;
  domains: string;
  enforced: boolean;
  groups_claim: string;
  /** One `group=role` per line. */
  group_roles: string;
  default_role: Role | '';
}

const EMPTY: Form = {
  issuer: '',
  client_id: '',
  client_secret: '',
  domains: '',
  enforced: false,
  groups_claim: 'groups',
  group_roles: '',
  default_role: 'member',
};

function toForm(sso: SsoConnection | null): Form {
  if (!sso) return EMPTY;
  return {
    issuer: sso.issuer,
    client_id: sso.client_id,
    client_secret: '',
    domains: sso.domains.join(', '),
    enforced: sso.enforced,
    groups_claim: sso.groups_claim,
    group_roles: sso.group_roles.map((g) => `${g.group}=${g.role}`).join('\n'),
    default_role: sso.default_role ?? '',
  };
}

/** The organisation's OIDC connection (owners): issuer, client, domains and group roles. */
export function SsoPanel({ organization }: { organization: Organization }) {
  const orgs = useOrganizationsApi();
  const { data: sso, mutate } = useSWR(['org-sso', organization.id], () =>
    orgs.sso(organization.id),
  );
  if (sso === undefined) return null;
  return (
    <SsoForm
      key={sso ? 'configured' : 'new'}
      organization={organization}
      sso={sso}
      onSaved={() => void mutate()}
    />
  );
}

function SsoForm({
  organization,
  sso,
  onSaved,
}: {
  organization: Organization;
  sso: SsoConnection | null;
  onSaved(): void;
}) {
  const orgs = useOrganizationsApi();
  const [form, setForm] = useState<Form>(() => toForm(sso));
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      await orgs.saveSso(organization.id, {
        issuer: form.issuer,
        client_id: form.client_id,
        ...(form.client_secret ? { client_secret: form.client_secret } : {}),
        domains: form.domains.split(/[\s,]+/).filter(Boolean),
        enforced: form.enforced,
        groups_claim: form.groups_claim,
        group_roles: form.group_roles
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .map((line) => {
            const at = line.lastIndexOf('=');
            return { group: line.slice(0, at).trim(), role: line.slice(at + 1).trim() };
          }),
        default_role: form.default_role || null,
      });
      setStatus({ ok: true, text: 'SSO saved' });
      onSaved();
    } catch (error) {
      setStatus({ ok: false, text: error instanceof Error ? error.message : String(error) });
    }
  }
  const text = (
    name: 'issuer' | 'client_id' | 'client_secret' | 'groups_claim' | 'domains',
    label: string,
    placeholder = '',
  ) => (
    <label className="field">
      <span>{label}</span>
      <input
        value={form[name]}
        placeholder={placeholder}
        type={name === 'client_secret' ? 'password' : 'text'}
        onChange={(event) => setForm({ ...form, [name]: event.target.value })}
      />
    </label>
  );
  return (
    <section className="panel">
      <h2>Single sign-on</h2>
      {sso ? (
        <p className="muted">
          Redirect URI to register at the provider: <code>{sso.redirect_uri}</code>
        </p>
      ) : null}
      <form className="form" onSubmit={(event) => void save(event)}>
        {text('issuer', 'Issuer URL', 'https://login.example.com/realms/firmware')}
        {text('client_id', 'Client ID')}
        {text('client_secret', sso ? 'Client secret (leave empty to keep)' : 'Client secret')}
        {text('domains', 'Email domains', 'example.com')}
        {text('groups_claim', 'Groups claim')}
        <label className="field">
          <span>Group roles, one group=role per line</span>
          <textarea
            rows={3}
            value={form.group_roles}
            onChange={(event) => setForm({ ...form, group_roles: event.target.value })}
          />
        </label>
        <label className="field">
          <span>Role when no group matches</span>
          <select
            value={form.default_role}
            onChange={(event) =>
              setForm({ ...form, default_role: event.target.value as Role | '' })
            }
          >
            <option value="">no access</option>
            {ROLE_NAMES.filter((r) => r !== 'owner').map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label className="list-tools__toggle">
          <input
            type="checkbox"
            checked={form.enforced}
            onChange={(event) => setForm({ ...form, enforced: event.target.checked })}
          />
          Require SSO for these domains
        </label>
        {status ? (
          <div className={`alert ${status.ok ? 'alert--success' : 'alert--error'}`}>
            {status.text}
          </div>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            Save SSO
          </button>
        </div>
      </form>
    </section>
  );
}
