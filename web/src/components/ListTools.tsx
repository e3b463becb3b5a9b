/** Search box, "Favourites only" and a count above a long list (projects, targets). */
export function ListTools({
  label,
  search,
  onSearch,
  favouritesOnly,
  onFavouritesOnly,
  count,
}: {
  /** What is listed, e.g. "projects": names the search box. */
  label: string;
  search: string;
  onSearch(value: string): void;
  favouritesOnly: boolean;
  onFavouritesOnly(value: boolean): void;
  count: string;
}) {
  return (
    <div className="list-tools">
      <input
        type="search"
        aria-label={`Search ${label}`}
        placeholder={`Search ${label}`}
        value={search}
        maxLength={200}
        onChange={(event) => onSearch(event.target.value)}
      />
      <label className="list-tools__toggle">
        <input
          type="checkbox"
          checked={favouritesOnly}
          onChange={(event) => onFavouritesOnly(event.target.checked)}
        />
        Favourites only
      </label>
      <span className="muted">{count}</span>
    </div>
  );
}

/** Previous / next over a list shown `limit` rows at a time; hidden when one page holds all. */
export function Pager({
  label,
  offset,
  limit,
  total,
  onOffset,
}: {
  label: string;
  offset: number;
  limit: number;
  total: number;
  onOffset(offset: number): void;
}) {
  if (total <= limit) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="button button--ghost"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(offset + limit, total)} of {total}
      </span>
      <button
        type="button"
        className="button button--ghost"
        disabled={offset + limit >= total}
        onClick={() => onOffset(offset + limit)}
      >
        Next
      </button>
    </nav>
  );
}

/** A star that marks a row as a favourite. */
export function FavouriteStar({ on, onToggle }: { on: boolean; onToggle(): void }) {
  return (
    <button
      type="button"
      className={`star${on ? ' star--on' : ''}`}
      aria-pressed={on}
      aria-label={on ? 'Remove from favourites' : 'Add to favourites'}
      onClick={onToggle}
    >
      {on ? '★' : '☆'}
    </button>
  );
}
