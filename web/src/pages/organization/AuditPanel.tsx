import type { AuditEvent, Organization } from '@memtrail/contracts';
import { useState } from 'react';
import { useOrganizationsApi } from '../../lib/organizations.ts';

/** The organisation's audit log: filters, older pages on demand, JSON-lines export. */
export function AuditPanel({ organization }: { organization: Organization }) {
  const orgs = useOrganizationsApi();
  const [filters, setFilters] = useState({ action: '', actor: '', from: '', to: '' });
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const query = (before?: string | null) =>
    new URLSearchParams({
      ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)),
      ...(before ? { before } : {}),
      limit: '50',
    }).toString();
  async function load(before?: string | null) {
    try {
      const page = await orgs.audit(organization.id, query(before));
      setEvents((current) => (before ? [...(current ?? []), ...page.events] : page.events));
      setNext(page.next_before);
      setFailure(null);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  }
  async function download() {
    const blob = await orgs.auditExport(organization.id, query());
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `audit-${organization.id}.jsonl`;
    link.click();
    URL.revokeObjectURL(url);
  }
  const field = (name: keyof typeof filters, label: string, type = 'text', placeholder = '') => (
    <label className="field">
      <span>{label}</span>
      <input
        type={type}
        value={filters[name]}
        placeholder={placeholder}
        onChange={(event) => setFilters({ ...filters, [name]: event.target.value })}
      />
    </label>
  );
  return (
    <section className="panel">
      <h2>Audit log</h2>
      <p className="muted">
        Kept {organization.audit_retention_days ?? 'the default number of'} days.
      </p>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void load();
        }}
      >
        {field('action', 'Action', 'text', 'api_key. or project.deleted')}
        {field('actor', 'Actor', 'text', 'email or key name')}
        {field('from', 'From', 'date')}
        {field('to', 'To', 'date')}
        <button type="submit" className="button button--primary">
          Show events
        </button>
        <button type="button" className="button button--ghost" onClick={() => void download()}>
          Export JSON lines
        </button>
      </form>
      {failure ? <div className="alert alert--error">{failure}</div> : null}
      {events ? (
        <table className="table audit-table">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>Action</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id}>
                <td>{new Date(event.created_at).toLocaleString()}</td>
                <td>
                  {event.actor.label ?? event.actor.type}
                  {event.ip ? <span className="muted"> {event.ip}</span> : null}
                </td>
                <td>
                  <code>{event.action}</code>
                </td>
                <td className="audit-table__details">{JSON.stringify(event.details)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {events && events.length === 0 ? <p className="muted">No events match.</p> : null}
      {next ? (
        <button type="button" className="button button--ghost" onClick={() => void load(next)}>
          Older events
        </button>
      ) : null}
    </section>
  );
}
