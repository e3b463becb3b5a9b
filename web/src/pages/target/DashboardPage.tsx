import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BudgetStatus } from '../../components/BudgetStatus.tsx';
import { ChoiceSwitch } from '../../components/charts/ChoiceSwitch.tsx';
import {
  RegionSeriesChart,
  type SeriesBudget,
} from '../../components/charts/RegionSeriesChart.tsx';
import { HiddenRegionsToggle } from '../../components/HiddenRegionsToggle.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { UsageBar } from '../../components/UsageBar.tsx';
import type { Head } from '../../lib/api/queryTypes.ts';
import { budgetsByRegion, useBudgetStatus } from '../../lib/budgets.ts';
import { SERIES_LIMIT, useBranchSeries, useHeads } from '../../lib/data.ts';
import { formatDate, shortSha, subjectOf } from '../../lib/format.ts';
import { useRegionVisibility } from '../../lib/regionVisibility.ts';
import { regionPoints } from '../../lib/seriesPoints.ts';
import {
  DEFAULT_SERIES_AXIS,
  DEFAULT_SERIES_SCALE,
  readChoice,
  SERIES_AXES,
  SERIES_SCALES,
  writeChoice,
  type ChoiceOption,
  type SeriesAxis,
  type SeriesScale,
} from '../../lib/seriesScale.ts';
import { STORAGE_KEYS } from '../../lib/storageKeys.ts';
import { paths } from '../../lib/routes.ts';
import { REGION_COLORS, useTargetRoute } from '../../lib/targetRoute.ts';
import { CommitHistory } from './CommitHistory.tsx';

const storage = () => window.localStorage;

/** A chart setting remembered across visits. */
function useRemembered<T extends string>(
  key: string,
  options: readonly ChoiceOption<T>[],
  fallback: T,
): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => readChoice(storage, key, options, fallback));
  return [
    value,
    (next: T) => {
      setValue(next);
      writeChoice(storage, key, next);
    },
  ];
}

/**
 * Dashboard: usage over commits of one branch, current utilisation with the budgets that apply,
 * and the commit history. Regions are shown as the region config says; empty and hidden ones
 * are a click away.
 */
export function DashboardPage() {
  const { projectId, target } = useTargetRoute();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const heads = useHeads(projectId, target);
  const branch = search.get('branch') ?? heads.data?.[0]?.branch;
  const head = heads.data?.find((candidate) => candidate.branch === branch);

  const series = useBranchSeries(projectId, target, branch);
  const budgetStatus = useBudgetStatus(projectId, target, head?.commit_sha);
  const budgets = useMemo(() => budgetsByRegion(budgetStatus.data), [budgetStatus.data]);
  const points = useMemo(() => (series.data ? regionPoints(series.data) : []), [series.data]);
  const regions = useMemo(() => series.data?.regions ?? [], [series.data]);
  const visibility = useRegionVisibility(regions);
  const [off, setOff] = useState<Set<string>>(new Set());
  const [scale, setScale] = useRemembered<SeriesScale>(
    STORAGE_KEYS.seriesScale,
    SERIES_SCALES,
    DEFAULT_SERIES_SCALE,
  );
  const [chosenAxis, setAxis] = useRemembered<SeriesAxis>(
    STORAGE_KEYS.seriesAxis,
    SERIES_AXES,
    DEFAULT_SERIES_AXIS,
  );
  // Without commit times there is no time axis to draw.
  const dated = points.length > 0 && points.every((point) => point.committed_at);
  const axis = dated ? chosenAxis : 'commit';
  const colorOf = useMemo(
    () =>
      new Map(regions.map((r, index) => [r.name, REGION_COLORS[index % REGION_COLORS.length]!])),
    [regions],
  );
  const lines = useMemo(
    () =>
      visibility.shown
        .filter((region) => !off.has(region.name))
        .map((region) => ({
          region: region.name,
          label: region.display_name,
          color: colorOf.get(region.name)!,
        })),
    [visibility.shown, off, colorOf],
  );
  const budgetLines = useMemo(
    (): SeriesBudget[] =>
      [...budgets].flatMap(([region, list]) =>
        list.map((b) => ({ region, name: b.budget, limit: b.limit })),
      ),
    [budgets],
  );
  const latest = points.at(-1);
  const beforeLatest = points.at(-2);

  if (heads.isLoading && !heads.data) return <Spinner message="Loading dashboard..." />;
  if (!heads.data?.length)
    return <NoReports projectId={projectId} target={target} error={heads.error} />;

  const openCommit = (sha: string) => void navigate(paths.commit(projectId, target, sha));
  const shownNow = visibility.shown.filter((region) => latest?.regions[region.name]);

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

      <section className="panel" aria-labelledby="utilisation-title">
        <div className="panel__head">
          <h2 id="utilisation-title">Current utilisation</h2>
          {latest ? (
            <span className="panel__hint">
              at <code>{shortSha(latest.sha)}</code>
            </span>
          ) : null}
        </div>
        <div className="usage-grid">
          {latest ? (
            shownNow.map((region) => {
              const usage = latest.regions[region.name]!;
              const before = beforeLatest?.regions[region.name];
              return (
                <UsageBar
                  key={region.name}
                  name={region.display_name}
                  used={usage.used_size}
                  limit={usage.limit_size}
                  budgets={budgets.get(region.name)}
                  delta={before ? usage.used_size - before.used_size : undefined}
                />
              );
            })
          ) : (
            <p className="muted">{series.error ?? 'Loading…'}</p>
          )}
        </div>
        <HiddenRegionsToggle
          count={visibility.hiddenCount}
          showing={visibility.showHidden}
          onToggle={visibility.toggle}
        />
      </section>

      <BudgetStatus status={budgetStatus.data} settingsPath={paths.settings(projectId)} />

      <section className="panel" aria-labelledby="series-title">
        <div className="panel__head">
          <h2 id="series-title">Region usage over commits</h2>
          <div className="chart-controls">
            <ChoiceSwitch
              title="Scale"
              name="chart-scale"
              options={SERIES_SCALES}
              value={scale}
              onChange={setScale}
            />
            {dated ? (
              <ChoiceSwitch
                title="Axis"
                name="chart-axis"
                options={SERIES_AXES}
                value={axis}
                onChange={setAxis}
              />
            ) : null}
          </div>
        </div>
        <div className="legend">
          {visibility.shown.map((region) => (
            <button
              type="button"
              key={region.name}
              className={`legend__item${off.has(region.name) ? ' legend__item--off' : ''}`}
              aria-pressed={!off.has(region.name)}
              onClick={() =>
                setOff((current) => {
                  const next = new Set(current);
                  if (next.has(region.name)) next.delete(region.name);
                  else next.add(region.name);
                  return next;
                })
              }
            >
              <span className="chart__swatch" style={{ background: colorOf.get(region.name) }} />
              {region.display_name}
            </button>
          ))}
          <span className="legend__note">
            solid: used · dashed: limit{budgetLines.length ? ' · dotted: budget' : ''}
          </span>
        </div>
        {series.data ? (
          points.length > 0 ? (
            <>
              <RegionSeriesChart
                points={points}
                lines={lines}
                budgets={budgetLines}
                scale={scale}
                axis={axis}
                onOpen={openCommit}
              />
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

      {head ? (
        <CommitHistory
          projectId={projectId}
          target={target}
          head={head}
          regions={visibility.shown}
        />
      ) : null}
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
