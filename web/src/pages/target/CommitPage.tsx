import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { MemoryLayoutMap } from '../../components/charts/MemoryLayoutMap.tsx';
import { SearchBox, usableQuery } from '../../components/SearchBox.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { UsageBar } from '../../components/UsageBar.tsx';
import { nextSort, VirtualTable, type Column } from '../../components/VirtualTable.tsx';
import type { CommitReportData, ReportSymbolRow } from '../../lib/api/queryTypes.ts';
import { useMemoryReport } from '../../lib/data.ts';
import { formatBytes, formatDate, formatInt, hex, shortSha, subjectOf } from '../../lib/format.ts';
import { paths } from '../../lib/routes.ts';
import { useTargetRoute } from '../../lib/targetRoute.ts';
import { ExportLinks } from './ExportLinks.tsx';

/** One commit's memory report: regions, layout to scale, sections and every symbol. */
export function CommitPage() {
  const { projectId, target } = useTargetRoute();
  const { commitSha = '' } = useParams();
  const { data, error, isLoading } = useMemoryReport<CommitReportData>(
    projectId,
    target,
    commitSha,
  );

  if (isLoading && !data) return <Spinner message="Loading memory report..." />;
  if (!data) {
    return (
      <div className="page">
        <div className="alert alert--error">{error ?? 'This commit has no memory report.'}</div>
      </div>
    );
  }
  const { commit, report } = data;
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
          {data.regions.map((region) => (
            <UsageBar
              key={region.name}
              name={region.name}
              used={region.used_size}
              limit={region.limit_size}
            />
          ))}
        </div>
      </section>

      <section className="panel">
        <h2>Memory layout</h2>
        <MemoryLayoutMap regions={data.regions} sections={data.sections} />
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
              {[...data.sections]
                .sort((a, b) => a.address - b.address)
                .map((section) => (
                  <tr key={`${section.region}/${section.name}@${section.address}`}>
                    <td className="mono">{section.name}</td>
                    <td>{section.region}</td>
                    <td className="muted">{section.type}</td>
                    <td className="num mono">{hex(section.address)}</td>
                    <td className="num">{formatBytes(section.size)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </section>

      <SymbolsTable symbols={data.symbols ?? []} symbolCount={report.symbol_count} />
    </div>
  );
}

type SymbolKey = 'name' | 'size' | 'address' | 'section' | 'source_file' | 'type';

const SYMBOL_COLUMNS: Array<Column<ReportSymbolRow> & { key: SymbolKey }> = [
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

function SymbolsTable({
  symbols,
  symbolCount,
}: {
  symbols: ReportSymbolRow[];
  symbolCount: number;
}) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ key: string; descending: boolean }>({
    key: 'size',
    descending: true,
  });
  const needle = usableQuery(query);
  const rows = useMemo(() => {
    const filtered = needle
      ? symbols.filter(
          (row) =>
            row.name.toLowerCase().includes(needle) ||
            row.full_name.toLowerCase().includes(needle) ||
            row.source_file.toLowerCase().includes(needle),
        )
      : symbols;
    const key = sort.key as SymbolKey;
    const direction = sort.descending ? -1 : 1;
    return [...filtered].sort((a, b) => {
      const left = a[key];
      const right = b[key];
      return (
        (typeof left === 'number'
          ? left - (right as number)
          : String(left).localeCompare(String(right))) * direction
      );
    });
  }, [symbols, needle, sort]);
  const total = rows.reduce((sum, row) => sum + row.size, 0);

  return (
    <section className="panel">
      <div className="panel__head">
        <h2>Symbols</h2>
        <SearchBox
          value={query}
          onChange={setQuery}
          placeholder="Search symbols or files"
          label="Search symbols"
        />
      </div>
      <p className="panel__hint">
        {formatInt(rows.length)} of {formatInt(symbolCount || symbols.length)} symbols ·{' '}
        {formatBytes(total)}
      </p>
      <VirtualTable
        label="Symbols"
        rows={rows}
        columns={SYMBOL_COLUMNS}
        rowKey={(row, index) => `${row.name}@${row.address}#${index}`}
        sort={sort}
        onSort={(key) =>
          setSort((current) => nextSort(current, key, key === 'size' || key === 'address'))
        }
      />
    </section>
  );
}
