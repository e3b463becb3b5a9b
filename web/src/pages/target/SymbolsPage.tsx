import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { HistoryChart } from '../../components/charts/HistoryChart.tsx';
import { Treemap } from '../../components/charts/Treemap.tsx';
import { SearchBox, usableQuery } from '../../components/SearchBox.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import type { HistoryData, TreeData, TreeNode } from '../../lib/api/queryTypes.ts';
import { useHeads, useTargetResource } from '../../lib/data.ts';
import { formatBytes, formatDate, formatDelta, formatInt, shortSha } from '../../lib/format.ts';
import { paths } from '../../lib/routes.ts';
import { useTargetRoute } from '../../lib/targetRoute.ts';

interface FoundSymbol {
  name: string;
  size: number;
  path: string;
}

/** Every symbol under a node with the path that leads to it, for search. */
function flatten(node: TreeNode, trail: string[] = [], out: FoundSymbol[] = []): FoundSymbol[] {
  if (node.kind === 'symbol')
    out.push({ name: node.name, size: node.size, path: trail.join(' › ') });
  else
    for (const child of node.children ?? [])
      flatten(child, node.kind === 'root' ? trail : [...trail, node.name], out);
  return out;
}

/** Where the bytes go at the head: treemap region → section → source file → symbol, search, history. */
export function SymbolsPage() {
  const { projectId, target } = useTargetRoute();
  const navigate = useNavigate();
  const heads = useHeads(projectId, target);
  const head = heads.data?.[0];
  const tree = useTargetResource<TreeData>(
    projectId,
    target,
    head ? `commit/${head.commit_sha}/tree?group_by=source&include_symbols=true` : null,
  );
  const [trail, setTrail] = useState<TreeNode[]>([]);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const root = tree.data?.tree;
  const current = trail.at(-1) ?? root;
  const all = useMemo(() => (root ? flatten(root) : []), [root]);
  const needle = usableQuery(query);
  const matches = useMemo(
    () =>
      needle
        ? all
            .filter((symbol) => symbol.name.toLowerCase().includes(needle))
            .sort((a, b) => b.size - a.size)
            .slice(0, 100)
        : [],
    [all, needle],
  );
  const history = useTargetResource<HistoryData>(
    projectId,
    target,
    selected && head
      ? `symbols/history?name=${encodeURIComponent(selected)}&branch=${encodeURIComponent(head.branch)}`
      : null,
  );

  if (heads.isLoading && !heads.data) return <Spinner message="Loading symbols..." />;
  if (!head)
    return (
      <div className="page">
        <div className="empty">
          <h2>No reports for this target yet</h2>
        </div>
      </div>
    );

  return (
    <div className="page page--wide">
      <header className="page__header">
        <p className="eyebrow">Symbol analysis</p>
        <h1 className="mono-title">{target}</h1>
        <p className="page__sub">
          Head of <code>{head.branch}</code> at <code>{shortSha(head.commit_sha)}</code> ·{' '}
          {formatInt(all.length)} symbols
        </p>
      </header>

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
                {node.name}
              </button>
            ))}
          </nav>
          {current ? (
            <span className="panel__hint">
              {formatBytes(current.size)} · {formatInt(current.symbols)} symbols
            </span>
          ) : null}
        </div>
        {current ? (
          <Treemap
            node={current}
            onDrill={(chain) => setTrail([...trail, ...chain])}
            onSymbol={(symbol) => setSelected(symbol.name)}
          />
        ) : tree.error ? (
          <div className="alert alert--error">{tree.error}</div>
        ) : (
          <Spinner message="Loading size tree..." />
        )}
      </section>

      <div className="split">
        <section className="panel">
          <div className="panel__head">
            <h2>Find a symbol</h2>
          </div>
          <SearchBox
            value={query}
            onChange={setQuery}
            placeholder="Symbol name, e.g. uart"
            label="Search symbols"
          />
          <ul className="found">
            {matches.map((symbol) => (
              <li key={`${symbol.path}/${symbol.name}`}>
                <button
                  type="button"
                  className={`found__item${selected === symbol.name ? ' found__item--on' : ''}`}
                  onClick={() => setSelected(symbol.name)}
                >
                  <span className="mono ellipsis">{symbol.name}</span>
                  <span className="found__size">{formatBytes(symbol.size)}</span>
                  <span className="found__path ellipsis">{symbol.path}</span>
                </button>
              </li>
            ))}
            {needle && matches.length === 0 ? <li className="muted">No symbol matches.</li> : null}
          </ul>
        </section>
        <section className="panel">
          <h2>History {selected ? <code>{selected}</code> : null}</h2>
          {!selected ? (
            <p className="muted">
              Choose a symbol from the search or the treemap to see its size over commits.
            </p>
          ) : history.data ? (
            <>
              <HistoryChart
                history={history.data}
                onOpen={(sha) => void navigate(paths.commit(projectId, target, sha))}
              />
              <dl className="facts">
                {(['appeared', 'last_change', 'largest_change'] as const).map((key) => {
                  const event = history.data![key];
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
