import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { RegionSeriesChart } from '../../components/charts/RegionSeriesChart.tsx';
import { ScaleSwitch } from '../../components/charts/ScaleSwitch.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { UsageBar } from '../../components/UsageBar.tsx';
import type { Head, RegionSeriesData } from '../../lib/api/queryTypes.ts';
import { useHeads, useTargetResource } from '../../lib/data.ts';
import { formatDate, shortSha, subjectOf } from '../../lib/format.ts';
import { regionPoints } from '../../lib/seriesPoints.ts';
import { readSeriesScale, writeSeriesScale, type SeriesScale } from '../../lib/seriesScale.ts';
import { paths } from '../../lib/routes.ts';
import { REGION_COLORS, useTargetRoute } from '../../lib/targetRoute.ts';
import { CommitHistory } from './CommitHistory.tsx';

const SERIES_LIMIT = 5000;
const storage = () => window.localStorage;

/** Dashboard: usage over commits of one branch, current utilisation and the commit history. */
export function DashboardPage() {
  const { projectId, target } = useTargetRoute();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const heads = useHeads(projectId, target);
  const branch = search.get('branch') ?? heads.data?.[0]?.branch;
  const head = heads.data?.find((candidate) => candidate.branch === branch);

  const series = useTargetResource<RegionSeriesData>(
    projectId,
    target,
    branch ? `series/regions?branch=${encodeURIComponent(branch)}&limit=${SERIES_LIMIT}` : null,
  );
  const points = useMemo(() => (series.data ? regionPoints(series.data) : []), [series.data]);
  const regionNames = useMemo(() => series.data?.regions.map((r) => r.name) ?? [], [series.data]);
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [scale, setScale] = useState<SeriesScale>(() => readSeriesScale(storage));
  const chooseScale = (next: SeriesScale) => {
    setScale(next);
    writeSeriesScale(storage, next);
  };
  const lines = useMemo(
    () =>
      regionNames
        .map((region, index) => ({ region, color: REGION_COLORS[index % REGION_COLORS.length]! }))
        .filter(({ region }) => !hidden.has(region)),
    [regionNames, hidden],
  );
  const latest = points.at(-1);
  const beforeLatest = points.at(-2);

  if (heads.isLoading && !heads.data) return <Spinner message="Loading dashboard..." />;
  if (!heads.data?.length)
    return <NoReports projectId={projectId} target={target} error={heads.error} />;

  const openCommit = (sha: string) => void navigate(paths.commit(projectId, target, sha));

  return (
    <div className="page page--wide">
      <header className="page__header page__header--row">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h1 className="mono-title">{target}</h1>
          {head ? <HeadLine head={head} projectId={projectId} target={target} /> : null}
        </div>
        <label className="select">
          <span>Branch</span>
          <select
            value={branch}
            onChange={(event) => setSearch({ branch: event.target.value }, { replace: true })}
          >
            {heads.data.map((candidate) => (
              <option key={candidate.branch} value={candidate.branch}>
                {candidate.branch} · {shortSha(candidate.commit_sha)}
              </option>
            ))}
          </select>
        </label>
      </header>

      <section className="panel">
        <div className="panel__head">
          <h2>Current utilisation</h2>
          {latest ? (
            <span className="panel__hint">
              at <code>{shortSha(latest.sha)}</code>
            </span>
          ) : null}
        </div>
        <div className="usage-grid">
          {latest ? (
            Object.entries(latest.regions).map(([name, usage]) => (
              <UsageBar
                key={name}
                name={name}
                used={usage.used_size}
                limit={usage.limit_size}
                delta={
                  beforeLatest?.regions[name]
                    ? usage.used_size - beforeLatest.regions[name].used_size
                    : undefined
                }
              />
            ))
          ) : (
            <p className="muted">{series.error ?? 'Loading…'}</p>
          )}
        </div>
      </section>

      <section className="panel">
        <div className="panel__head">
          <h2>Region usage over commits</h2>
          <div className="legend">
            <ScaleSwitch value={scale} onChange={chooseScale} />
            {regionNames.map((region, index) => (
              <button
                type="button"
                key={region}
                className={`legend__item${hidden.has(region) ? ' legend__item--off' : ''}`}
                aria-pressed={!hidden.has(region)}
                onClick={() =>
                  setHidden((current) => {
                    const next = new Set(current);
                    if (next.has(region)) next.delete(region);
                    else next.add(region);
                    return next;
                  })
                }
              >
                <span
                  className="chart__swatch"
                  style={{ background: REGION_COLORS[index % REGION_COLORS.length] }}
                />
                {region}
              </button>
            ))}
            <span className="legend__note">solid: used · dashed: limit</span>
          </div>
        </div>
        {series.data ? (
          points.length > 0 ? (
            <>
              <RegionSeriesChart points={points} lines={lines} scale={scale} onOpen={openCommit} />
              <p className="panel__hint">
                {points.length} commits
                {series.data.truncated ? ` (latest ${SERIES_LIMIT})` : ''} · scroll to zoom, drag to
                pan, click a commit to open it
              </p>
            </>
          ) : (
            <p className="muted">No reports on this branch yet.</p>
          )
        ) : series.error ? (
          <div className="alert alert--error">{series.error}</div>
        ) : (
          <Spinner message="Loading usage history..." />
        )}
      </section>

      {head ? <CommitHistory projectId={projectId} target={target} head={head} /> : null}
    </div>
  );
}

function HeadLine({ head, projectId, target }: { head: Head; projectId: string; target: string }) {
  return (
    <p className="page__sub">
      Head{' '}
      <Link to={paths.commit(projectId, target, head.commit_sha)}>
        <code>{shortSha(head.commit_sha)}</code>
      </Link>{' '}
      {subjectOf(head.commit.message)} · {formatDate(head.commit.committed_at ?? head.updated_at)}
    </p>
  );
}

function NoReports({
  projectId,
  target,
  error,
}: {
  projectId: string;
  target: string;
  error: string | null;
}) {
  return (
    <div className="page">
      <header className="page__header">
        <h1 className="mono-title">{target}</h1>
      </header>
      {error ? <div className="alert alert--error">{error}</div> : null}
      <div className="empty">
        <h2>No reports for this target yet</h2>
        <p>
          Upload a memory report with the project’s API key (see the{' '}
          <Link to="/tutorial">tutorial</Link>), or check the{' '}
          <Link to={paths.settings(projectId)}>project settings</Link>.
        </p>
      </div>
    </div>
  );
}
