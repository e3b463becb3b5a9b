import type { SymbolDelta, SymbolStatus } from '@memtrail/contracts';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BudgetStatus } from '../../components/BudgetStatus.tsx';
import { HiddenRegionsToggle } from '../../components/HiddenRegionsToggle.tsx';
import { SearchBox, usableQuery } from '../../components/SearchBox.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { Delta } from '../../components/UsageBar.tsx';
import { nextSort, VirtualTable, type Column } from '../../components/VirtualTable.tsx';
import type { CommitDiffData } from '../../lib/api/queryTypes.ts';
import { useBudgetStatus } from '../../lib/budgets.ts';
import { useCommits, useComparison, useHeads } from '../../lib/data.ts';
import {
  formatBytes,
  formatDate,
  formatInt,
  formatPercent,
  shortSha,
  subjectOf,
} from '../../lib/format.ts';
import { useRegionVisibility } from '../../lib/regionVisibility.ts';
import { paths } from '../../lib/routes.ts';
import { useTargetRoute } from '../../lib/targetRoute.ts';
import { CommitPicker } from '../../components/CommitPicker.tsx';
import { ExportLinks } from './ExportLinks.tsx';

const STATUSES: Array<Exclude<SymbolStatus, 'unchanged'>> = [
  'added',
  'removed',
  'modified',
  'moved',
];

/** URL parameters of the page's filters, so a shared link opens the same view. */
const PARAM = { search: 'q', statuses: 'show', zeroSize: 'zero' } as const;

/**
 * Two builds side by side: budgets at the head, region, section and symbol changes of head
 * against base. The commits, the status filters, the search and the 0-byte switch are in the
 * URL; regions show as the region config says.
 */
export function ComparePage() {
  const { projectId, target } = useTargetRoute();
  const [search, setSearch] = useSearchParams();
  const heads = useHeads(projectId, target);
  const latest = heads.data?.[0]?.commit_sha;
  const chain = useCommits(projectId, target, latest, {
    count: 200,
    offset: 0,
    onlyChanged: false,
  });
  const commits = chain.data?.commits ?? [];
  const head = search.get('head') ?? latest;
  const base =
    search.get('base') ?? commits.find((commit) => commit.sha === head)?.parent_sha ?? undefined;
  const zeroSize = search.get(PARAM.zeroSize) === '1';
  const comparison = useComparison<CommitDiffData>(projectId, target, base, head, false, zeroSize);
  const budgetStatus = useBudgetStatus(projectId, target, comparison.data ? head : undefined);

  const choose = (side: 'base' | 'head', sha: string) => {
    const next = new URLSearchParams(search);
    next.set('base', base ?? '');
    next.set('head', head ?? '');
    next.set(side, sha);
    setSearch(next, { replace: false });
  };
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };

  if (heads.isLoading && !heads.data) return <Spinner message="Loading builds..." />;

  return (
    <div className="page page--wide">
      <header className="page__header page__header--row">
        <div>
          <p className="eyebrow">Compare builds</p>
          <h1 className="mono-title">{target}</h1>
          <p className="page__sub">
            Pick two commits; the link of this page shares the comparison.
          </p>
        </div>
        {base && head ? (
          <div className="page__actions">
            <CopyLink />
            <ExportLinks
              projectId={projectId}
              target={target}
              resource={`commit/${base}/${head}/export`}
            />
          </div>
        ) : null}
      </header>

      <section className="panel compare-pick">
        <CommitPicker
          label="Base"
          value={base}
          commits={commits}
          onChange={(sha) => choose('base', sha)}
        />
        <span className="compare-pick__arrow" aria-hidden="true">
          →
        </span>
        <CommitPicker
          label="Head"
          value={head}
          commits={commits}
          onChange={(sha) => choose('head', sha)}
        />
      </section>

      {!base || !head ? (
        <div className="empty">
          <h2>Nothing to compare yet</h2>
          <p>Two uploaded commits are needed; choose them above.</p>
        </div>
      ) : comparison.data ? (
        <>
          {comparison.isLoading ? (
            <p className="panel__hint" role="status">
              Updating the comparison…
            </p>
          ) : null}
          <BudgetStatus status={budgetStatus.data} settingsPath={paths.settings(projectId)} />
          <DiffView
            data={comparison.data}
            projectId={projectId}
            target={target}
            params={search}
            setParam={setParam}
          />
        </>
      ) : comparison.error ? (
        <div className="alert alert--error">{comparison.error}</div>
      ) : (
        <Spinner message="Comparing builds..." />
      )}
    </div>
  );
}

function CopyLink() {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button button--ghost"
      onClick={() =>
        void navigator.clipboard?.writeText(window.location.href).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        })
      }
    >
      {copied ? 'Link copied' : 'Copy link'}
    </button>
  );
}

function DiffView({
  data,
  projectId,
  target,
  params,
  setParam,
}: {
  data: CommitDiffData;
  projectId: string;
  target: string;
  params: URLSearchParams;
  setParam(name: string, value: string | null): void;
}) {
  const { diff } = data;
  const visibility = useRegionVisibility(diff.regions);
  const shownNames = new Map(visibility.shown.map((r) => [r.name, r.display_name]));
  const sections = diff.sections.filter(
    (section) =>
      shownNames.has(section.region) && (section.delta !== 0 || section.status !== 'unchanged'),
  );
  return (
    <>
      <section className="panel">
        <div className="compare-sides">
          {(['base', 'head'] as const).map((side) => (
            <div key={side} className="compare-side">
              <span className="eyebrow">{side}</span>
              <Link to={paths.commit(projectId, target, data[side].commit.sha)}>
                <code>{shortSha(data[side].commit.sha)}</code>
              </Link>
              <span>{subjectOf(data[side].commit.message)}</span>
              <span className="muted">{formatDate(data[side].commit.committed_at)}</span>
            </div>
          ))}
        </div>
        <h2>Regions</h2>
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Region</th>
                <th className="num">Base</th>
                <th className="num">Head</th>
                <th className="num">Change</th>
                <th className="num">Limit</th>
                <th className="num">Head use</th>
              </tr>
            </thead>
            <tbody>
              {visibility.shown.map((region) => (
                <tr key={region.name}>
                  <td>
                    {region.display_name}
                    {region.old_name ? (
                      <span className="muted small"> (was {region.old_name})</span>
                    ) : null}
                  </td>
                  <td className="num">{region.old ? formatBytes(region.old.used_size) : '—'}</td>
                  <td className="num">{region.new ? formatBytes(region.new.used_size) : '—'}</td>
                  <td className="num">
                    <Delta bytes={region.used_change} />
                  </td>
                  <td className="num muted">
                    {formatBytes((region.new ?? region.old)?.limit_size ?? 0)}
                  </td>
                  <td className="num">
                    {region.new ? formatPercent(region.new.used_size, region.new.limit_size) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <HiddenRegionsToggle
          count={visibility.hiddenCount}
          showing={visibility.showHidden}
          onToggle={visibility.toggle}
        />
      </section>

      <section className="panel">
        <h2>Sections</h2>
        {sections.length === 0 ? (
          <p className="muted">No section changed size.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Section</th>
                  <th>Region</th>
                  <th>Status</th>
                  <th className="num">Base</th>
                  <th className="num">Head</th>
                  <th className="num">Change</th>
                  <th className="num">Symbols / padding</th>
                </tr>
              </thead>
              <tbody>
                {sections.map((section) => (
                  <tr key={`${section.region}/${section.name}/${section.load_copy}`}>
                    <td className="mono">
                      {section.name}
                      {section.load_copy ? <span className="tag">load copy</span> : null}
                    </td>
                    <td>{shownNames.get(section.region)}</td>
                    <td>
                      <span className={`status status--${section.status}`}>{section.status}</span>
                    </td>
                    <td className="num">{section.old ? formatBytes(section.old.size) : '—'}</td>
                    <td className="num">{section.new ? formatBytes(section.new.size) : '—'}</td>
                    <td className="num">
                      <Delta bytes={section.delta} />
                    </td>
                    <td className="num muted">
                      {formatBytes(section.symbols_delta)} / {formatBytes(section.padding_delta)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <SymbolChanges
        symbols={diff.symbols}
        totals={diff.totals}
        params={params}
        setParam={setParam}
      />
    </>
  );
}

const SYMBOL_COLUMNS: Column<SymbolDelta>[] = [
  {
    key: 'name',
    label: 'Symbol',
    width: 'minmax(220px, 3fr)',
    render: (row) => (
      <span
        className="mono ellipsis"
        title={row.old_name ? `${row.old_name} → ${row.name}` : row.name}
      >
        {row.name}
      </span>
    ),
  },
  {
    key: 'status',
    label: 'Status',
    width: '100px',
    render: (row) => <span className={`status status--${row.status}`}>{row.status}</span>,
  },
  {
    key: 'old',
    label: 'Base',
    numeric: true,
    width: '100px',
    render: (row) => (row.old ? formatBytes(row.old.size) : '—'),
  },
  {
    key: 'new',
    label: 'Head',
    numeric: true,
    width: '100px',
    render: (row) => (row.new ? formatBytes(row.new.size) : '—'),
  },
  {
    key: 'delta',
    label: 'Change',
    numeric: true,
    width: '110px',
    render: (row) => <Delta bytes={row.delta} />,
  },
  {
    key: 'where',
    label: 'Section / file',
    width: 'minmax(180px, 2fr)',
    render: (row) => {
      const side = row.new ?? row.old;
      // A move shows with its size change too (such a symbol is "modified").
      const movedSection = row.old && row.new && row.old.section !== row.new.section;
      const movedFile =
        row.old?.source_file && row.new?.source_file && row.old.source_file !== row.new.source_file;
      return (
        <span className="ellipsis muted" title={side?.source_file}>
          {movedSection ? `${row.old!.section} → ${row.new!.section}` : side?.section}
          {movedFile
            ? ` · ${row.old!.source_file} → ${row.new!.source_file}`
            : side?.source_file
              ? ` · ${side.source_file}`
              : ''}
        </span>
      );
    },
  },
];

const sortValue = (row: SymbolDelta, key: string): number | string => {
  if (key === 'old') return row.old?.size ?? 0;
  if (key === 'new') return row.new?.size ?? 0;
  if (key === 'delta') return Math.abs(row.delta);
  if (key === 'status') return row.status;
  if (key === 'where') return (row.new ?? row.old)?.section ?? '';
  return row.name;
};

function SymbolChanges({
  symbols,
  totals,
  params,
  setParam,
}: {
  symbols: SymbolDelta[];
  totals: CommitDiffData['diff']['totals'];
  params: URLSearchParams;
  setParam(name: string, value: string | null): void;
}) {
  const listed = params.get(PARAM.statuses);
  const shown = useMemo(
    () => new Set<string>(listed === null ? STATUSES : listed.split(',').filter(Boolean)),
    [listed],
  );
  const toggleStatus = (status: string) => {
    const next = STATUSES.filter((s) => (s === status ? !shown.has(s) : shown.has(s)));
    setParam(PARAM.statuses, next.length === STATUSES.length ? null : next.join(','));
  };
  const query = params.get(PARAM.search) ?? '';
  const zeroSize = params.get(PARAM.zeroSize) === '1';
  const [sort, setSort] = useState({ key: 'delta', descending: true });
  const needle = usableQuery(query);
  const rows = useMemo(() => {
    const filtered = symbols.filter(
      (row) =>
        shown.has(row.status) &&
        (!needle ||
          row.name.toLowerCase().includes(needle) ||
          (row.new ?? row.old)?.source_file.toLowerCase().includes(needle)),
    );
    const direction = sort.descending ? -1 : 1;
    return filtered.sort((a, b) => {
      const left = sortValue(a, sort.key);
      const right = sortValue(b, sort.key);
      return (
        (typeof left === 'number' ? left - (right as number) : left.localeCompare(String(right))) *
        direction
      );
    });
  }, [symbols, shown, needle, sort]);
  const counts: Record<string, number> = {
    added: totals.symbols_added,
    removed: totals.symbols_removed,
    modified: totals.symbols_modified,
    moved: totals.symbols_moved,
  };
  const net = rows.reduce((sum, row) => sum + row.delta, 0);

  return (
    <section className="panel">
      <div className="panel__head">
        <h2>Symbol changes</h2>
        <SearchBox
          value={query}
          onChange={(value) => setParam(PARAM.search, value)}
          placeholder="Search symbols or files"
          label="Search symbol changes"
        />
      </div>
      <div className="filters">
        {STATUSES.map((status) => (
          <button
            type="button"
            key={status}
            aria-pressed={shown.has(status)}
            className={`filter filter--${status}${shown.has(status) ? ' filter--on' : ''}`}
            onClick={() => toggleStatus(status)}
          >
            {status} <strong>{formatInt(counts[status] ?? 0)}</strong>
          </button>
        ))}
        {totals.zero_size_changes > 0 ? (
          <label className="toggle">
            <input
              type="checkbox"
              checked={zeroSize}
              onChange={(event) => setParam(PARAM.zeroSize, event.target.checked ? '1' : null)}
            />
            {formatInt(totals.zero_size_changes)} changes of 0-byte symbols (LTO markers, labels)
          </label>
        ) : null}
        <span className="panel__hint">
          {formatInt(rows.length)} shown · net <Delta bytes={net} />
        </span>
      </div>
      <VirtualTable
        key={`${sort.key}/${sort.descending}/${needle}/${[...shown].join()}`}
        label="Symbol changes"
        count={rows.length}
        row={(index) => rows[index]}
        columns={SYMBOL_COLUMNS}
        rowKey={(row, index) => `${row.name}#${index}`}
        sort={sort}
        onSort={(key) =>
          setSort((current) => nextSort(current, key, ['old', 'new', 'delta'].includes(key)))
        }
      />
    </section>
  );
}
