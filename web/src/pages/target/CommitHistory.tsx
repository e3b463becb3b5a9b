import { useState } from 'react';
import { Link } from 'react-router';
import { Delta } from '../../components/UsageBar.tsx';
import { COMMIT_PAGE_SIZE } from '../../lib/api/core.ts';
import type { Head } from '../../lib/api/queryTypes.ts';
import { useCommits } from '../../lib/data.ts';
import { formatBytes, formatDate, formatInt, shortSha, subjectOf } from '../../lib/format.ts';
import { paths } from '../../lib/routes.ts';

/**
 * The head's chain of commits, 50 a page, with per-region changes against each parent, for the
 * regions the dashboard shows. The table scrolls inside its card when the regions do not fit.
 */
export function CommitHistory({
  projectId,
  target,
  head,
  regions,
}: {
  projectId: string;
  target: string;
  head: Head;
  /** Columns: the regions shown, by name, under their display names. */
  regions: readonly { name: string; display_name: string }[];
}) {
  const [onlyChanged, setOnlyChanged] = useState(true);
  const [offset, setOffset] = useState(0);
  const { data, error, isLoading } = useCommits(projectId, target, head.commit_sha, {
    count: COMMIT_PAGE_SIZE,
    offset,
    onlyChanged,
  });
  const commits = data?.commits ?? [];
  const root = data?.chain_summary.root_sha;
  const total = data?.pagination.total_in_chain ?? 0;
  const page = Math.floor(offset / COMMIT_PAGE_SIZE) + 1;
  const pages = Math.max(1, Math.ceil(total / COMMIT_PAGE_SIZE));

  return (
    <section className="panel">
      <div className="panel__head">
        <h2>Commit history</h2>
        <label className="toggle">
          <input
            type="checkbox"
            checked={onlyChanged}
            onChange={(event) => {
              setOnlyChanged(event.target.checked);
              setOffset(0);
            }}
          />
          Only commits that changed the footprint
        </label>
      </div>
      {data ? (
        <p className="panel__hint">
          {formatInt(data.chain_summary.total_commits)} commits in the chain of{' '}
          <code>{head.branch}</code>, {formatInt(data.chain_summary.changed_commits)} changed the
          footprint
        </p>
      ) : null}
      {error ? <div className="alert alert--error">{error}</div> : null}
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Commit</th>
              <th>Message</th>
              <th>Author</th>
              <th>Date</th>
              {regions.map((region) => (
                <th key={region.name} className="num">
                  {region.display_name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {commits.map((commit) => (
              <tr key={commit.sha}>
                <td>
                  <Link to={paths.commit(projectId, target, commit.sha)}>
                    <code>{shortSha(commit.sha)}</code>
                  </Link>
                  {commit.kind !== 'full' ? (
                    <span className={`tag tag--${commit.kind}`}>
                      {commit.kind === 'build_failed' ? 'build failed' : 'identical'}
                    </span>
                  ) : null}
                  {commit.sha === root && !data?.pagination.has_more ? (
                    <span className="tag">first report</span>
                  ) : null}
                </td>
                <td className="table__message" title={commit.message ?? ''}>
                  {subjectOf(commit.message)}
                </td>
                <td className="muted">{commit.author_name ?? '—'}</td>
                <td className="muted nowrap">{formatDate(commit.committed_at)}</td>
                {regions.map(({ name }) => {
                  const region = commit.regions.find((candidate) => candidate.name === name);
                  return (
                    <td key={name} className="num">
                      {region ? (
                        <>
                          <span className="nowrap">{formatBytes(region.used_size)}</span>
                          {region.used_change !== 0 ? <Delta bytes={region.used_change} /> : null}
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
            {!isLoading && commits.length === 0 ? (
              <tr>
                <td colSpan={4 + regions.length} className="muted">
                  No commits to show.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <div className="pager">
        <button
          type="button"
          className="button button--ghost"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - COMMIT_PAGE_SIZE))}
        >
          ← Newer
        </button>
        <span>
          Page {page} of {pages}
        </span>
        <button
          type="button"
          className="button button--ghost"
          disabled={!data?.pagination.has_more}
          onClick={() => setOffset(offset + COMMIT_PAGE_SIZE)}
        >
          Older →
        </button>
      </div>
    </section>
  );
}
