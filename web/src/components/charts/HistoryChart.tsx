import { area, line, max, scaleLinear } from 'd3';
import { useMemo, useState } from 'react';
import type { HistoryData } from '../../lib/api/queryTypes.ts';
import { formatBytes, formatDate, shortSha } from '../../lib/format.ts';
import { historyPoints } from '../../lib/seriesPoints.ts';

const WIDTH = 900;
const HEIGHT = 200;
const M = { top: 10, right: 12, bottom: 22, left: 64 };

/** Size of one symbol (or file) over commits, oldest left; hover shows the commit. */
export function HistoryChart({
  history,
  onOpen,
}: {
  history: HistoryData;
  onOpen(sha: string): void;
}) {
  const [hover, setHover] = useState<number | null>(null);
  const points = useMemo(() => historyPoints(history), [history]);
  const x = scaleLinear()
    .domain([0, Math.max(1, points.length - 1)])
    .range([M.left, WIDTH - M.right]);
  const y = scaleLinear()
    .domain([0, (max(points, (p) => p.size) ?? 1) * 1.1 || 1])
    .range([HEIGHT - M.bottom, M.top])
    .nice();
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
  return (
    <div className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="chart__svg"
        role="img"
        aria-label={`Size history of ${history.subject}`}
        onMouseMove={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          const local = ((event.clientX - box.left) / box.width) * WIDTH;
          setHover(Math.min(points.length - 1, Math.max(0, Math.round(x.invert(local)))));
        }}
        onMouseLeave={() => setHover(null)}
        onClick={() => hovered && onOpen(hovered.sha)}
      >
        {y.ticks(4).map((tick) => (
          <g key={tick}>
            <line
              className="chart__grid"
              x1={M.left}
              x2={WIDTH - M.right}
              y1={y(tick)}
              y2={y(tick)}
            />
            <text className="chart__label" x={M.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {formatBytes(tick)}
            </text>
          </g>
        ))}
        <path d={fill} className="chart__area" />
        <path d={path} className="chart__line" stroke="#f59e0b" />
        {hover !== null && hovered ? (
          <circle cx={x(hover)} cy={y(hovered.size)} r={4} fill="#f59e0b" />
        ) : null}
      </svg>
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
        </div>
      ) : null}
    </div>
  );
}
