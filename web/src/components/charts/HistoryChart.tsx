import { area, line, max, scaleLinear } from 'd3';
import { useMemo, useState, type KeyboardEvent } from 'react';
import type { HistoryData, SeriesCommit } from '../../lib/api/queryTypes.ts';
import { byteTicks } from '../../lib/chartAxes.ts';
import { formatBytes, formatDate, shortSha } from '../../lib/format.ts';
import { historyPoints } from '../../lib/seriesPoints.ts';

const WIDTH = 900;
const HEIGHT = 200;
const M = { top: 10, right: 12, bottom: 22, left: 64 };

/**
 * Size of one symbol (or file) over commits, oldest left; hover, or the arrow keys once it has
 * the focus, shows the commit (and the name the symbol had there); click or Enter opens it.
 * The commits' subjects and times come from `commits` (the branch's series).
 */
export interface HistoryChartProps {
  history: HistoryData;
  commits: readonly SeriesCommit[] | undefined;
  onOpen(sha: string): void;
}

export function HistoryChart({ history, commits, onOpen }: HistoryChartProps) {
  const [hover, setHover] = useState<number | null>(null);
  const points = useMemo(() => historyPoints(history, commits), [history, commits]);
  const x = scaleLinear()
    .domain([0, Math.max(1, points.length - 1)])
    .range([M.left, WIDTH - M.right]);
  const top = (max(points, (p) => p.size) ?? 1) * 1.1 || 1;
  const y = scaleLinear()
    .domain([0, top])
    .range([HEIGHT - M.bottom, M.top]);
  const ticks = byteTicks([0, top], 4);
  const indexed = points.map((point, index) => [point, index] as const);
  const path =
    line<(typeof indexed)[number]>()
      .x(([, i]) => x(i))
      .y(([p]) => y(p.size))(indexed) ?? '';
  const fill =
    area<(typeof indexed)[number]>()
      .x(([, i]) => x(i))
      .y0(y(0))
      .y1(([p]) => y(p.size))(indexed) ?? '';
  const hovered = hover === null ? null : points[hover];
  const names = hovered?.names ?? [];
  const onKey = (event: KeyboardEvent) => {
    const last = points.length - 1;
    const at = hover ?? last;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      setHover(Math.min(last, Math.max(0, to)));
    } else if (event.key === 'Enter' && points[at]) onOpen(points[at].sha);
  };
  const describe = hovered
    ? `${shortSha(hovered.sha)} ${formatDate(hovered.committed_at)}: ${
        hovered.present ? formatBytes(hovered.size) : 'absent'
      }${names.length && names[0] !== history.subject ? ` as ${names.join(', ')}` : ''}`
    : '';
  return (
    <div className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="chart__svg"
        role="group"
        tabIndex={0}
        aria-label={`Size history of ${history.subject}`}
        aria-describedby="history-chart-point"
        onKeyDown={onKey}
        onFocus={() => setHover((at) => at ?? points.length - 1)}
        onBlur={() => setHover(null)}
        onMouseMove={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          const local = ((event.clientX - box.left) / box.width) * WIDTH;
          setHover(Math.min(points.length - 1, Math.max(0, Math.round(x.invert(local)))));
        }}
        onMouseLeave={() => setHover(null)}
        onClick={() => hovered && onOpen(hovered.sha)}
      >
        {ticks.values.map((tick, index) => (
          <g key={tick}>
            <line
              className="chart__grid"
              x1={M.left}
              x2={WIDTH - M.right}
              y1={y(tick)}
              y2={y(tick)}
            />
            <text className="chart__label" x={M.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {ticks.labels[index]}
            </text>
          </g>
        ))}
        <path d={fill} className="chart__area" />
        <path d={path} className="chart__line" stroke="#b45309" />
        {hover !== null && hovered ? (
          <circle cx={x(hover)} cy={y(hovered.size)} r={4} fill="#b45309" />
        ) : null}
      </svg>
      <p id="history-chart-point" className="visually-hidden" aria-live="polite">
        {describe}
      </p>
      {hovered ? (
        <div
          className="chart__tooltip"
          style={{ left: `${Math.min(70, (x(hover!) / WIDTH) * 100)}%`, top: 0 }}
        >
          <div className="chart__tooltip-head">
            <code>{shortSha(hovered.sha)}</code>
            <span>{formatDate(hovered.committed_at)}</span>
          </div>
          <p className="chart__tooltip-msg">{hovered.subject ?? ''}</p>
          <strong>{hovered.present ? formatBytes(hovered.size) : 'absent'}</strong>
          {names.length && names[0] !== history.subject ? (
            <p className="chart__tooltip-msg">as {names.join(', ')}</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
