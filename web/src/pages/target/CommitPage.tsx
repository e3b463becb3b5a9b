import type { SymbolSortKey } from '@memtrail/contracts';
import { SYMBOL_SORT_KEYS } from '@memtrail/contracts';
import { useDeferredValue } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { BudgetStatus } from '../../components/BudgetStatus.tsx';
import { MemoryLayoutMap } from '../../components/charts/MemoryLayoutMap.tsx';
import { HiddenRegionsToggle } from '../../components/HiddenRegionsToggle.tsx';
import { SearchBox, usableQuery } from '../../components/SearchBox.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { UsageBar } from '../../components/UsageBar.tsx';
import { nextSort, VirtualTable, type Column } from '../../components/VirtualTable.tsx';
import type { CommitReportData, ReportSymbolRow } from '../../lib/api/queryTypes.ts';
import { budgetsByRegion, useBudgetStatus } from '../../lib/budgets.ts';
import { useMemoryReport } from '../../lib/data.ts';
import { formatBytes, formatDate, formatInt, hex, shortSha, subjectOf } from '../../lib/format.ts';
import { useRegionVisibility } from '../../lib/regionVisibility.ts';
import { paths } from '../../lib/routes.ts';
import { useSymbolPages } from '../../lib/symbolPages.ts';
import { useTargetRoute } from '../../lib/targetRoute.ts';
import { ExportLinks } from './ExportLinks.tsx';

/**
 * One commit's memory report: budgets, regions, layout to scale, sections and every symbol (a
 * page at a time from the server, so a 40k-symbol build is usable at once). Regions show as the
 * region config says; empty and hidden ones are a click away.
 */
export function CommitPage() {
  const { projectId, target } = useTargetRoute();
  const { commitSha = '' } = useParams();
  const { data, error, isLoading } = useMemoryReport<CommitReportData>(
    projectId,
    target,
    commitSha,
  );
  // Budgets and the first page of symbols load beside the report, not after it. The symbols
  // are asked for again once a report still being ingested is ready.
  const budgetStatus = useBudgetStatus(projectId, target, commitSha);
  const symbols = useSymbolsQuery(
    projectId,
    target,
    commitSha,
    data?.report.status === 'pending' ? null : 0,
  );
  const visibility = useRegionVisibility(data?.regions ?? []);

  if (isLoading && !data) return <Spinner message="Loading memory report..." />;
  if (!data) {
    return (
      <div className="page">
        <div className="alert alert--error">{error ?? 'This commit has no memory report.'}</div>
      </div>
    );
  }
  const { commit, report } = data;
  const budgets = budgetsByRegion(budgetStatus.data);
  const shownNames = new Map(visibility.shown.map((r) => [r.name, r.display_name]));
  const compareUrl = report.parent_sha
    ? `${paths.compare(projectId, target)}?base=${report.parent_sha}&head=${commit.sha}`
    : null;

  return (
    <div className="page page--wide">
      <header className="page__header page__header--row">
        <div>
          <p className="eyebrow">Commit</p>
          <h1 className="mono-title">{shortSha(commit.sha)}</h1>
          <p className="page__lead">{subjectOf(commit.message)}</p>
          <p className="page__sub">
            {commit.author_name ?? 'Unknown author'} · {formatDate(commit.committed_at)}
            {report.branch ? (
              <>
                {' '}
                · on <code>{report.branch}</code>
              </>
            ) : null}
            {report.parent_sha ? (
              <>
                {' '}
                · parent{' '}
                <Link to={paths.commit(projectId, target, report.parent_sha)}>
                  <code>{shortSha(report.parent_sha)}</code>
                </Link>
              </>
            ) : null}
          </p>
        </div>
        <div className="page__actions">
          {compareUrl ? (
            <Link className="button button--primary" to={compareUrl}>
              Compare with parent
            </Link>
          ) : null}
          <ExportLinks
            projectId={projectId}
            target={target}
            resource={`commit/${commit.sha}/export`}
          />
        </div>
      </header>

      {report.kind === 'build_failed' ? (
        <div className="alert alert--error">
          The build of this commit failed; it has no footprint.
        </div>
      ) : null}
      {report.status === 'pending' ? (
        <div className="alert">This report is still being processed; symbols appear shortly.</div>
      ) : null}

      <section className="panel">
        <h2>Regions</h2>
        <div className="usage-grid">
          {visibility.shown.map((region) => (
            <UsageBar
              key={region.name}
              name={region.display_name}
              used={region.used_size}
              limit={region.limit_size}
              budgets={budgets.get(region.name)}
            />
          ))}
        </div>
        <HiddenRegionsToggle
          count={visibility.hiddenCount}
          showing={visibility.showHidden}
          onToggle={visibility.toggle}
        />
      </section>

      <BudgetStatus status={budgetStatus.data} settingsPath={paths.settings(projectId)} />

      <section className="panel">
        <h2>Memory layout</h2>
        <MemoryLayoutMap regions={visibility.shown} sections={data.sections} />
      </section>

      <section className="panel">
        <h2>Sections</h2>
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Section</th>
                <th>Region</th>
                <th>Type</th>
                <th className="num">Address</th>
                <th className="num">Size</th>
              </tr>
            </thead>
            <tbody>
              {data.sections
                .filter((section) => shownNames.has(section.region))
                .sort((a, b) => a.address - b.address)
                .map((section) => (
                  <tr key={`${section.region}/${section.name}@${section.address}`}>
                    <td className="mono">{section.name}</td>
                    <td>{shownNames.get(section.region)}</td>
                    <td className="muted">{section.type}</td>
                    <td className="num mono">{hex(section.address)}</td>
                    <td className="num">{formatBytes(section.size)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </section>

      <SymbolsTable symbols={symbols} />
    </div>
  );
}

const SYMBOL_COLUMNS: Column<ReportSymbolRow>[] = [
  {
    key: 'name',
    label: 'Symbol',
    width: 'minmax(220px, 3fr)',
    render: (row) => (
      <span className="mono ellipsis" title={row.full_name || row.name}>
        {row.full_name || row.name}
      </span>
    ),
  },
  {
    key: 'size',
    label: 'Size',
    numeric: true,
    width: '100px',
    render: (row) => formatBytes(row.size),
  },
  {
    key: 'type',
    label: 'Type',
    width: '80px',
    render: (row) => <span className="muted">{row.type}</span>,
  },
  {
    key: 'section',
    label: 'Section',
    width: 'minmax(90px, 1fr)',
    render: (row) => <span className="mono">{row.section}</span>,
  },
  {
    key: 'source_file',
    label: 'Source',
    width: 'minmax(160px, 2fr)',
    render: (row) => (
      <span className="ellipsis muted" title={row.source_file}>
        {row.source_file || '—'}
      </span>
    ),
  },
  {
    key: 'address',
    label: 'Address',
    numeric: true,
    width: '110px',
    render: (row) => <span className="mono">{hex(row.address)}</span>,
  },
];

const NUMERIC_SORTS = new Set<string>(['size', 'address']);
const isSortKey = (value: string | null): value is SymbolSortKey =>
  (SYMBOL_SORT_KEYS as readonly (string | null)[]).includes(value);

/**
 * The report's symbols as the table shows them, sorted, filtered and searched on the server.
 * The search text and sort live in the URL, so a link keeps them. `ready` changes (null while
 * the report is being ingested) start the pages over.
 */
function useSymbolsQuery(projectId: string, target: string, sha: string, ready: number | null) {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const rawSort = params.get('sort');
  const sort = {
    key: isSortKey(rawSort) ? rawSort : 'size',
    descending: params.get('order') !== 'asc',
  };
  const needle = useDeferredValue(usableQuery(query));
  const pages = useSymbolPages(projectId, target, sha, ready, {
    sort: sort.key,
    descending: sort.descending,
    q: needle,
  });
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setParams(next, { replace: true });
  };
  return { query, sort, needle, pages, update };
}

/** Every symbol of the report: search, counts, and the table a screenful at a time. */
function SymbolsTable({ symbols }: { symbols: ReturnType<typeof useSymbolsQuery> }) {
  const { query, sort, needle, pages, update } = symbols;
  const meta = pages.meta;

  return (
    <section className="panel">
      <div className="panel__head">
        <h2>Symbols</h2>
        <SearchBox
          value={query}
          onChange={(value) => update({ q: value })}
          placeholder="Search symbols or files"
          label="Search symbols"
        />
      </div>
      <p className="panel__hint" aria-live="polite">
        {meta
          ? `${formatInt(meta.matched)} of ${formatInt(meta.total)} symbols · ${formatBytes(meta.matched_bytes)}`
          : 'Loading symbols…'}
        {meta?.source_root ? (
          <>
            {' '}
            · paths relative to <code>{meta.source_root}</code>
          </>
        ) : null}
      </p>
      {pages.error ? <div className="alert alert--error">{pages.error}</div> : null}
      {meta?.rows === null ? (
        <p className="muted">This report is still being processed; symbols appear shortly.</p>
      ) : null}
      <VirtualTable
        key={`${sort.key}/${sort.descending}/${needle}`}
        label="Symbols"
        count={meta?.matched ?? 0}
        row={pages.row}
        onRange={pages.onRange}
        columns={SYMBOL_COLUMNS}
        rowKey={(row, index) => `${row.name}@${row.address}#${index}`}
        sort={sort}
        onSort={(key) => {
          const next = nextSort(sort, key, NUMERIC_SORTS.has(key));
          update({ sort: next.key, order: next.descending ? '' : 'asc' });
        }}
      />
    </section>
  );
}
