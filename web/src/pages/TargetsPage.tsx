import { useState } from 'react';
import { Link, useParams } from 'react-router';
import useSWR from 'swr';
import { FavouriteStar, ListTools, Pager } from '../components/ListTools.tsx';
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
      <ListTools
        label="targets"
        search={search}
        onSearch={(value) => {
          setSearch(value);
          setOffset(0);
        }}
        favouritesOnly={favourites}
        onFavouritesOnly={(value) => {
          setFavourites(value);
          setOffset(0);
        }}
        count={`${total} targets`}
      />
      {error ? <div className="alert alert--error">{String(error.message ?? error)}</div> : null}
      <ul className="target-list">
        {(data?.targets ?? []).map((target) => (
          <li key={target.name}>
            <FavouriteStar
              on={target.favourite}
              onToggle={() => void toggle(target.name, !target.favourite)}
            />
            <Link to={paths.dashboard(projectId, target.name)}>{target.name}</Link>
          </li>
        ))}
      </ul>
      <Pager
        label="Target pages"
        offset={offset}
        limit={PAGE_SIZE}
        total={total}
        onOffset={setOffset}
      />
    </div>
  );
}
