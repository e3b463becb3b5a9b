import type { ReportSymbolRow } from '@memtrail/contracts';
import { useDeferredValue, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { HistoryChart, type HistoryChartProps } from '../../components/charts/HistoryChart.tsx';
import { Treemap } from '../../components/charts/Treemap.tsx';
import { CommitPicker } from '../../components/CommitPicker.tsx';
import { SearchBox, usableQuery } from '../../components/SearchBox.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import type { HistoryData, TreeData, TreeNode } from '../../lib/api/queryTypes.ts';
import { useBranchSeries, useCommits, useHeads, useTargetResource } from '../../lib/data.ts';
import { diffTree } from '../../lib/diffTree.ts';
import { formatBytes, formatDate, formatDelta, formatInt, shortSha } from '../../lib/format.ts';
import { paths } from '../../lib/routes.ts';
import { useSymbolPages } from '../../lib/symbolPages.ts';
import { useTargetRoute } from '../../lib/targetRoute.ts';

/** Commits offered by the pickers: the latest of the head's chain. */
const PICKABLE = 200;
/** Symbols of one file drawn as its treemap, largest first. */
const FILE_SYMBOLS = 1000;
const SEARCH_RESULTS = 100;

const treeOf = (sha: string | undefined) =>
  sha ? `commit/${encodeURIComponent(sha)}/tree?group_by=source&include_symbols=false` : null;

/** The region, section and repository-relative path a trail of tree nodes down to a file names. */
function fileOf(trail: TreeNode[]): { region: string; section: string; path: string } | null {
  const file = trail.at(-1);
  if (file?.kind !== 'file' || file.name === '(unknown)') return null;
  const [region, section, ...folders] = trail;
  const dirs = folders.slice(0, -1).map((node) => node.name);
  const path =
    dirs[0] === '/'
      ? `/${[...dirs.slice(1), file.name].join('/')}`
      : [...dirs, file.name].join('/');
  return { region: region!.name, section: section!.name, path };
}

/**
 * Where the bytes go at a chosen commit: a treemap region → section → folders → file (→ its
 * symbols), or the growth since another commit coloured by change; search; the size history of
 * a symbol followed through its compiler clones. The commits, the selected symbol and the
 * search are in the URL.
 */
export function SymbolsPage() {
  const { projectId, target } = useTargetRoute();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const heads = useHeads(projectId, target);
  const head = heads.data?.[0];
  const chain = useCommits(projectId, target, head?.commit_sha, {
    count: PICKABLE,
    offset: 0,
    onlyChanged: false,
  });
  const sha = params.get('sha') ?? head?.commit_sha;
  const base = params.get('base') ?? undefined;
  const selected = params.get('symbol');
  const query = params.get('q') ?? '';
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  const tree = useTargetResource<TreeData>(projectId, target, treeOf(sha));
  const before = useTargetResource<TreeData>(projectId, target, treeOf(base));
  const [trail, setTrail] = useState<TreeNode[]>([]);
  const root = useShownTree(tree.data, base ? before.data : null);
  // Another commit or growth base: start again at the top.
  const [rootSeen, setRootSeen] = useState(root);
  if (root !== rootSeen) {
    setRootSeen(root);
    setTrail([]);
  }
  const file = fileOf(trail);
  const fileSymbols = useSymbolPages(projectId, target, file ? sha : undefined, null, {
    sort: 'size',
    descending: true,
    q: '',
    ...(file ? { file: file.path, region: file.region, section: file.section } : {}),
    pageSize: FILE_SYMBOLS,
  });
  const current = useMemo((): TreeNode | undefined => {
    const node = trail.at(-1) ?? root;
    if (!file || !node) return node;
    const rows = fileSymbols.meta?.rows ?? [];
    return {
      ...node,
      children: rows.map((row) => ({
        name: row.full_name || row.name,
        kind: 'symbol',
        size: row.size,
        symbols: 1,
      })),
    };
  }, [trail, root, file, fileSymbols.meta]);

  const needle = useDeferredValue(usableQuery(query));
  const search = useSymbolPages(projectId, target, needle ? sha : undefined, null, {
    sort: 'size',
    descending: true,
    q: needle,
    pageSize: SEARCH_RESULTS,
  });
  const matches = needle ? (search.meta?.rows ?? []) : [];

  const history = useTargetResource<HistoryData>(
    projectId,
    target,
    selected && head
      ? `symbols/history?name=${encodeURIComponent(selected)}&branch=${encodeURIComponent(head.branch)}`
      : null,
  );
  // The commits' subjects and times, shared with the dashboard's chart.
  const series = useBranchSeries(projectId, target, selected ? head?.branch : undefined);

  if (heads.isLoading && !heads.data) return <Spinner message="Loading symbols..." />;
  if (!head)
    return (
      <div className="page">
        <div className="empty">
          <h2>No reports for this target yet</h2>
        </div>
      </div>
    );

  const commits = chain.data?.commits ?? [];
  const select = (symbol: { name: string }) => setParam('symbol', symbol.name);

  return (
    <div className="page page--wide">
      <header className="page__header">
        <p className="eyebrow">Symbol analysis</p>
        <h1 className="mono-title">{target}</h1>
        <p className="page__sub">
          {tree.data ? `${formatInt(tree.data.tree.symbols)} symbols` : 'Loading…'} at{' '}
          <code>{shortSha(sha ?? '')}</code>
          {base ? (
            <>
              {' '}
              · growth since <code>{shortSha(base)}</code>
            </>
          ) : null}
        </p>
      </header>

      <section className="panel compare-pick" aria-label="Commits">
        <CommitPicker
          label="Commit"
          value={sha}
          commits={commits}
          onChange={(value) => setParam('sha', value === head.commit_sha ? null : value)}
        />
        <label className="select select--wide">
          <span>Growth since</span>
          <select value={base ?? ''} onChange={(event) => setParam('base', event.target.value)}>
            <option value="">— (sizes at this commit)</option>
            {commits
              .filter((commit) => commit.sha !== sha && commit.kind !== 'build_failed')
              .map((commit) => (
                <option key={commit.sha} value={commit.sha}>
                  {shortSha(commit.sha)} · {formatDate(commit.committed_at)}
                </option>
              ))}
          </select>
        </label>
      </section>

      <section className="panel">
        <div className="panel__head">
          <nav className="crumbs" aria-label="Treemap level">
            <button type="button" className="crumbs__item" onClick={() => setTrail([])}>
              All regions
            </button>
            {trail.map((node, index) => (
              <button
                type="button"
                key={`${node.kind}:${node.name}`}
                className="crumbs__item"
                onClick={() => setTrail(trail.slice(0, index + 1))}
              >
                {node.display_name ?? node.name}
              </button>
            ))}
          </nav>
          {current ? (
            <span className="panel__hint">
              {formatBytes(current.size)} · {formatInt(current.symbols)} symbols
              {'delta' in current ? ` · ${formatDelta(current.delta as number)}` : ''}
            </span>
          ) : null}
        </div>
        {base ? (
          <p className="panel__hint">
            Tiles take the larger of the two sizes; red grew, green shrank, grey is unchanged.
          </p>
        ) : null}
        {current ? (
          <Treemap
            node={current}
            onDrill={(chainTo) => setTrail([...trail, ...chainTo])}
            onSymbol={(node) =>
              node.kind === 'symbol' ? select(node) : setTrail([...trail, node])
            }
          />
        ) : tree.error || before.error ? (
          <div className="alert alert--error">{tree.error ?? before.error}</div>
        ) : (
          <Spinner message="Loading size tree..." />
        )}
      </section>

      <div className="split">
        <section className="panel" aria-labelledby="find-title">
          <div className="panel__head">
            <h2 id="find-title">Find a symbol</h2>
          </div>
          <SearchBox
            value={query}
            onChange={(value) => setParam('q', value)}
            placeholder="Symbol name, e.g. uart"
            label="Search symbols"
          />
          <ul className="found">
            {matches.map((symbol: ReportSymbolRow) => (
              <li key={`${symbol.name}@${symbol.address}`}>
                <button
                  type="button"
                  className={`found__item${selected === symbol.name ? ' found__item--on' : ''}`}
                  onClick={() => select(symbol)}
                >
                  <span className="mono ellipsis">{symbol.full_name || symbol.name}</span>
                  <span className="found__size">{formatBytes(symbol.size)}</span>
                  <span className="found__path ellipsis">
                    {[symbol.region, symbol.section, symbol.source_file]
                      .filter(Boolean)
                      .join(' › ')}
                  </span>
                </button>
              </li>
            ))}
            {needle && search.meta && matches.length === 0 ? (
              <li className="muted">No symbol matches.</li>
            ) : null}
          </ul>
        </section>
        <section className="panel" aria-labelledby="history-title">
          <h2 id="history-title">History {selected ? <code>{selected}</code> : null}</h2>
          {!selected ? (
            <p className="muted">
              Choose a symbol from the search or the treemap to see its size over commits.
            </p>
          ) : history.data ? (
            <SymbolHistory
              history={history.data}
              commits={series.data?.commits}
              onOpen={(commit) => void navigate(paths.commit(projectId, target, commit))}
            />
          ) : history.error ? (
            <div className="alert alert--error">{history.error}</div>
          ) : (
            <Spinner message="Loading history..." />
          )}
        </section>
      </div>
    </div>
  );
}

/** The tree at the commit, or (given the base's tree) its growth since the base. */
function useShownTree(
  at: TreeData | undefined,
  since: TreeData | undefined | null,
): TreeNode | undefined {
  return useMemo(() => {
    if (!at || since === undefined) return undefined;
    return since === null ? at.tree : diffTree(since.tree, at.tree);
  }, [at, since]);
}

/** The chart, its key events and the other names (compiler clones) the symbol had. */
function SymbolHistory({ history, commits, onOpen }: HistoryChartProps) {
  const aliases = [
    ...new Set((history.names ?? []).flat().filter((name) => name !== history.subject)),
  ];
  return (
    <>
      <HistoryChart history={history} commits={commits} onOpen={onOpen} />
      {aliases.length ? (
        <p className="panel__hint">
          Followed through its other names:{' '}
          {aliases.map((name, index) => (
            <span key={name}>
              {index ? ', ' : ''}
              <code>{name}</code>
            </span>
          ))}
        </p>
      ) : null}
      <dl className="facts">
        {(['appeared', 'last_change', 'largest_change'] as const).map((key) => {
          const event = history[key];
          return (
            <div key={key}>
              <dt>{key.replace('_', ' ')}</dt>
              <dd>
                {event ? (
                  <>
                    <code>{shortSha(event.sha)}</code> {formatDelta(event.delta)} ·{' '}
                    {formatDate(event.committed_at)}
                  </>
                ) : (
                  '—'
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </>
  );
}
