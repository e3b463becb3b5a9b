import type { ApiKeyInfo } from '@memtrail/contracts';
import { formatDate } from '../lib/format.ts';

/** Keys with their last use; live ones can be revoked. Shared by project keys and CI tokens. */
export function KeyTable({
  keys,
  onRevoke,
}: {
  keys: ApiKeyInfo[];
  onRevoke(id: string): Promise<void>;
}) {
  return (
    // Scrolls sideways inside its card on narrow screens.
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Scope</th>
            <th>Key</th>
            <th>Last used</th>
            <th>Expires</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} className={key.revoked_at ? 'row--revoked' : undefined}>
              <td>
                {key.name}
                {key.created_by ? <span className="muted"> by {key.created_by}</span> : null}
              </td>
              <td>
                <span className="tag">{key.scope}</span>
              </td>
              <td>
                <code>{key.masked}</code>
              </td>
              <td title={key.last_user_agent ?? undefined}>
                {key.last_used_at
                  ? `${formatDate(key.last_used_at)} from ${key.last_ip ?? '?'}`
                  : 'never'}
              </td>
              <td>{key.expires_at ? formatDate(key.expires_at) : 'never'}</td>
              <td>
                {key.revoked_at ? (
                  <span className="muted">revoked {formatDate(key.revoked_at)}</span>
                ) : (
                  <button
                    type="button"
                    className="button button--ghost button--danger"
                    onClick={() => void onRevoke(key.id)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
