import { Link } from 'react-router';
import { chooseOrganization, useOrganizations } from '../lib/organizations.ts';

/** The header's organisation choice: every organisation, or one; and a link to manage it. */
export function OrganizationSwitcher() {
  const { data: organizations, chosen } = useOrganizations();
  if (!organizations?.length) return null;
  return (
    <div className="org-switcher">
      <label className="org-switcher__label">
        <span className="visually-hidden">Organization</span>
        <select
          aria-label="Organization"
          value={chosen?.id ?? ''}
          onChange={(event) => chooseOrganization(event.target.value || null)}
        >
          <option value="">All organizations</option>
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.personal ? `${o.name} (personal)` : o.name}
            </option>
          ))}
        </select>
      </label>
      {chosen ? (
        <Link to="/organization" className="button button--ghost org-switcher__manage">
          {chosen.role === 'owner' || chosen.role === 'admin' ? 'Manage' : 'Members'}
        </Link>
      ) : null}
    </div>
  );
}
