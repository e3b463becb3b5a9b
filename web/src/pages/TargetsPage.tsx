import { useState } from 'react';
import { Link, useParams } from 'react-router';
import useSWR from 'swr';
import { useOrganizationsApi } from '../lib/organizations.ts';
import { paths } from '../lib/routes.ts';

const PAGE_SIZE = 50;

/** `/project/{id}/targets`: every target of a project, searched and paged on the server. */
export function TargetsPage() {
  const { projectId = '' } = useParams();
  const orgs = useOrganizationsApi();
  const [search, setSearch] = useState('');
  const [favourites, setFavourites] = useState(false);
  const [offset, setOffset] = useState(0);
  const params = { search: search.trim(), favourites, offset, limit: PAGE_SIZE };
  const { data, error, mutate } = useSWR(['target-page', projectId, params], () =>
    orgs.targetPage(projectId, params),
  );
  const total = data?.pagination?.total ?? 0;
  async function toggle(name: string, favourite: boolean) {
    await orgs.setFavourite(
      `/api/${encodeURIComponent(projectId)}/${encodeURIComponent(name)}`,
      favourite,
    );
    await mutate();
  }
  return (
    <div className="page">
      <header className="page__header">
        <p className="eyebrow">Targets</p>
        <h1>All targets</h1>
      </header>
      <div className="list-tools">
        <input
          type="search"
          aria-label="Search targets"
          placeholder="Search targets"
          value={search}
          maxLength={200}
          onChange={(event) => {
            setSearch(event.target.value);
            setOffset(0);
          }}
        />
        <label className="list-tools__toggle">
          <input
            type="checkbox"
            checked={favourites}
            onChange={(event) => {
              setFavourites(event.target.checked);
              setOffset(0);
            }}
          />
          Favourites only
        </label>
        <span className="muted">{total} targets</span>
      </div>
      {error ? <div className="alert alert--error">{String(error.message ?? error)}</div> : null}
      <ul className="target-list">
        {(data?.targets ?? []).map((target) => (
          <li key={target.name}>
            <button
              type="button"
              className={`star${target.favourite ? ' star--on' : ''}`}
              aria-pressed={target.favourite}
              aria-label={target.favourite ? 'Remove from favourites' : 'Add to favourites'}
              onClick={() => void toggle(target.name, !target.favourite)}
            >
              {target.favourite ? '★' : '☆'}
            </button>
            <Link to={paths.dashboard(projectId, target.name)}>{target.name}</Link>
          </li>
        ))}
      </ul>
      {total > PAGE_SIZE ? (
        <nav className="pager" aria-label="Target pages">
          <button
            type="button"
            className="button button--ghost"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          >
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE_SIZE, total)} of {total}
          </span>
          <button
            type="button"
            className="button button--ghost"
            disabled={offset + PAGE_SIZE >= total}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}
