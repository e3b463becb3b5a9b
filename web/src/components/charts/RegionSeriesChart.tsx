import {
  bisector,
  line,
  scaleLinear,
  scaleUtc,
  select,
  zoom,
  zoomIdentity,
  type ScaleLinear,
  type ZoomTransform,
} from 'd3';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { byteTicks, timeLabel } from '../../lib/chartAxes.ts';
import type { RegionSeriesPoint } from '../../lib/seriesPoints.ts';
import { formatBytes, formatDate, formatDelta, formatPercent, shortSha } from '../../lib/format.ts';
import {
  limitPlacement,
  limitsDomain,
  usageDomain,
  type SeriesAxis,
  type SeriesScale,
} from '../../lib/seriesScale.ts';

const MIN_HEIGHT = 280;
/** Height of one region's band in the "usage" scale, gap included. */
const BAND_HEIGHT = 150;
const BAND_GAP = 24;
const MARGIN = { top: 16, right: 20, bottom: 28, left: 80 };

export interface SeriesLine {
  region: string;
  /** The region's display name. */
  label: string;
  color: string;
}

/** A budget's limit on one region, drawn as a dotted line. */
export interface SeriesBudget {
  region: string;
  name: string;
  limit: number;
}

type Edge = 'above' | 'below';

/** One y-axis and the lines drawn against it: all regions ("limits") or one band per region. */
interface Plot {
  key: string;
  lines: SeriesLine[];
  y: ScaleLinear<number, number>;
  top: number;
  bottom: number;
  ticks: { values: number[]; labels: string[] };
  /** False when a limit lies outside the band: it is noted at the edge instead of drawn. */
  limitsDrawn: boolean;
  /** Limits and budgets outside the band, written at its top or bottom edge. */
  notes: { key: string; text: string; color: string; edge: Edge }[];
  /** Budgets inside the band, drawn as lines. */
  budgets: { key: string; text: string; value: number }[];
}

/** The axes of a scale: "limits" shares one from zero, "usage" fits one band to each region. */
function plotsOf(
  scale: SeriesScale,
  points: RegionSeriesPoint[],
  lines: SeriesLine[],
  budgets: SeriesBudget[],
  innerHeight: number,
): Plot[] {
  const usages = (region: string) =>
    points.flatMap((point) => (point.regions[region] ? [point.regions[region]] : []));
  const budgetText = (b: SeriesBudget) => `budget ${b.name} ${formatBytes(b.limit)}`;
  const place = (own: SeriesBudget[], domain: [number, number], color: string) => ({
    budgets: own
      .filter((b) => limitPlacement(b.limit, domain) === 'inside')
      .map((b) => ({ key: `${b.region}/${b.name}`, text: budgetText(b), value: b.limit })),
    notes: own.flatMap((b): Plot['notes'] => {
      const edge = limitPlacement(b.limit, domain);
      return edge === 'above' || edge === 'below'
        ? [{ key: `budget:${b.region}/${b.name}`, text: budgetText(b), color, edge }]
        : [];
    }),
  });
  if (scale === 'limits') {
    const values = lines.flatMap(({ region }) =>
      usages(region).map((usage) => ({ used: usage.used_size, limit: usage.limit_size })),
    );
    const domain = limitsDomain(values);
    const y = scaleLinear().domain(domain).range([innerHeight, 0]);
    const shown = new Set(lines.map((l) => l.region));
    return [
      {
        key: 'all',
        lines,
        y,
        top: 0,
        bottom: innerHeight,
        ticks: byteTicks(domain, 5),
        limitsDrawn: true,
        ...place(
          budgets.filter((b) => shown.has(b.region)),
          domain,
          '#b91c1c',
        ),
      },
    ];
  }
  const band = innerHeight / Math.max(1, lines.length);
  return lines.map((series, index) => {
    const used = usages(series.region);
    const top = index * band + (index === 0 ? 0 : BAND_GAP / 2);
    const bottom = (index + 1) * band - (index === lines.length - 1 ? 0 : BAND_GAP / 2);
    // Not niced: rounding the domain out to tick steps would take back the room fitting gained.
    const domain = usageDomain(used.map((usage) => usage.used_size));
    const y = scaleLinear().domain(domain).range([bottom, top]);
    // A limit is drawn when every commit's limit lies in the band, else the latest one is noted.
    const drawn = used.every((usage) =>
      ['inside', 'none'].includes(limitPlacement(usage.limit_size, domain)),
    );
    const latest = used.at(-1)?.limit_size ?? 0;
    const edge = limitPlacement(latest, domain);
    const own = place(
      budgets.filter((b) => b.region === series.region),
      domain,
      series.color,
    );
    return {
      key: series.region,
      lines: [series],
      y,
      top,
      bottom,
      ticks: byteTicks(domain, 3),
      limitsDrawn: drawn,
      budgets: own.budgets,
      notes: [
        ...(!drawn && (edge === 'above' || edge === 'below')
          ? [
              {
                key: 'limit',
                text: `limit ${formatBytes(latest)}`,
                color: series.color,
                edge: edge as Edge,
              },
            ]
          : []),
        ...own.notes,
      ],
    };
  });
}

/**
 * Used bytes of the chosen regions over commits (oldest left), each with its limit as a dashed
 * line and its budgets as dotted ones. The x-axis is time (labelled with years when the range
 * spans them) or one even step per commit ("by commit", so bursts of commits stay readable). In
 * the "usage" scale each region gets a band with its own axis fitted to its used bytes (a limit
 * out of range is noted at the band's edge); in "limits" all share one axis from zero. Wheel or
 * drag zooms and pans; hovering — or the arrow keys once the chart has the focus — shows a
 * commit; clicking or Enter opens it.
 */
export function RegionSeriesChart({
  points,
  lines,
  budgets = [],
  scale,
  axis,
  onOpen,
}: {
  points: RegionSeriesPoint[];
  lines: SeriesLine[];
  budgets?: SeriesBudget[];
  scale: SeriesScale;
  axis: SeriesAxis;
  onOpen(sha: string): void;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(800);
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);
  const [hover, setHover] = useState<number | null>(null);
  const times = useMemo(
    () => (axis === 'time' ? points.map((point) => new Date(point.committed_at!)) : null),
    [axis, points],
  );

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(svg);
    return () => observer.disconnect();
  }, []);

  const height =
    scale === 'usage'
      ? Math.max(MIN_HEIGHT, MARGIN.top + MARGIN.bottom + lines.length * BAND_HEIGHT)
      : MIN_HEIGHT;
  const innerWidth = Math.max(100, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const behaviour = zoom<SVGSVGElement, unknown>()
      .scaleExtent([1, Math.max(1, points.length / 5)])
      .translateExtent([
        [0, 0],
        [innerWidth, innerHeight],
      ])
      .extent([
        [0, 0],
        [innerWidth, innerHeight],
      ])
      .on('zoom', (event: { transform: ZoomTransform }) => setTransform(event.transform));
    select(svg).call(behaviour);
    return () => void select(svg).on('.zoom', null);
  }, [points.length, innerWidth, innerHeight]);

  /** x of point i, and the point nearest an x, on the axis in use (zoomed). */
  const xAxis = useMemo(() => {
    if (times) {
      const first = times[0] ?? new Date(0);
      const last = times.at(-1) ?? first;
      const base = scaleUtc()
        .domain([first, last.getTime() === first.getTime() ? new Date(first.getTime() + 1) : last])
        .range([0, innerWidth]);
      const x = transform.rescaleX(base);
      const domain = x.domain() as [Date, Date];
      const nearest = (px: number) => {
        const at = x.invert(px).getTime();
        const i = bisector((d: Date) => d.getTime()).center(times, at);
        return Math.min(points.length - 1, Math.max(0, i));
      };
      return {
        at: (i: number) => x(times[i]!),
        nearest,
        ticks: x
          .ticks(Math.max(2, Math.floor(innerWidth / 110)))
          .map((tick) => ({ key: tick.getTime(), x: x(tick), label: timeLabel(tick, domain) })),
      };
    }
    const base = scaleLinear()
      .domain([0, Math.max(1, points.length - 1)])
      .range([0, innerWidth]);
    const x = transform.rescaleX(base);
    const dates = points.flatMap((p) => (p.committed_at ? [new Date(p.committed_at)] : []));
    const span: [Date, Date] = [dates[0] ?? new Date(0), dates.at(-1) ?? new Date(0)];
    return {
      at: (i: number) => x(i),
      nearest: (px: number) => Math.min(points.length - 1, Math.max(0, Math.round(x.invert(px)))),
      ticks: x
        .ticks(Math.max(2, Math.floor(innerWidth / 110)))
        .filter((tick) => Number.isInteger(tick) && tick >= 0 && tick < points.length)
        .map((tick) => {
          const when = points[tick]!.committed_at;
          return {
            key: tick,
            x: x(tick),
            label: when ? timeLabel(new Date(when), span) : shortSha(points[tick]!.sha),
          };
        }),
    };
  }, [times, points, innerWidth, transform]);

  const plots = useMemo(
    () => plotsOf(scale, points, lines, budgets, innerHeight),
    [scale, points, lines, budgets, innerHeight],
  );

  const paths = useMemo(() => {
    const indexed = points.map((point, index) => [point, index] as [RegionSeriesPoint, number]);
    return plots.flatMap((plot) =>
      plot.lines.map(({ region, color }) => {
        const used = line<[RegionSeriesPoint, number]>()
          .defined(([point]) => point.regions[region] !== undefined)
          .x(([, index]) => xAxis.at(index))
          .y(([point]) => plot.y(point.regions[region]?.used_size ?? 0));
        const limit = line<[RegionSeriesPoint, number]>()
          .defined(([point]) => (point.regions[region]?.limit_size ?? 0) > 0)
          .x(([, index]) => xAxis.at(index))
          .y(([point]) => plot.y(point.regions[region]?.limit_size ?? 0));
        return {
          region,
          color,
          used: used(indexed) ?? '',
          limit: plot.limitsDrawn ? (limit(indexed) ?? '') : '',
        };
      }),
    );
  }, [plots, points, xAxis]);

  const nearest = (clientX: number) => {
    const svg = svgRef.current;
    if (!svg || points.length === 0) return null;
    return xAxis.nearest(clientX - svg.getBoundingClientRect().left - MARGIN.left);
  };

  const onKey = (event: KeyboardEvent<SVGSVGElement>) => {
    const last = points.length - 1;
    const current = hover ?? last;
    const moves: Record<string, number> = {
      ArrowLeft: current - 1,
      ArrowRight: current + 1,
      Home: 0,
      End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      setHover(Math.min(last, Math.max(0, moves[event.key]!)));
    } else if (event.key === 'Enter' && points[current]) {
      onOpen(points[current].sha);
    }
  };

  const hovered = hover === null ? null : points[hover];
  const previous = hover === null || hover === 0 ? null : points[hover - 1];
  const hoverX = hover === null ? 0 : xAxis.at(hover);

  return (
    <div className="chart">
      <svg
        ref={svgRef}
        className="chart__svg"
        width="100%"
        height={height}
        role="group"
        aria-label="Region usage over commits"
        aria-describedby="series-chart-keys series-chart-point"
        tabIndex={0}
        onKeyDown={onKey}
        onFocus={() => setHover((current) => current ?? points.length - 1)}
        onBlur={() => setHover(null)}
        onMouseMove={(event) => setHover(nearest(event.clientX))}
        onMouseLeave={() => setHover(null)}
        onClick={(event) => {
          const index = nearest(event.clientX);
          const point = index === null ? undefined : points[index];
          if (point) onOpen(point.sha);
        }}
      >
        <defs>
          <clipPath id="series-clip">
            <rect width={innerWidth} height={innerHeight + 2} y={-1} />
          </clipPath>
        </defs>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          {plots.map((plot) => (
            <g key={plot.key} className="chart__axis" data-region={plot.key}>
              {plot.ticks.values.map((tick, index) => (
                <g key={tick} transform={`translate(0,${plot.y(tick)})`}>
                  <line className="chart__grid" x2={innerWidth} />
                  <text className="chart__label" x={-8} dy="0.32em" textAnchor="end">
                    {plot.ticks.labels[index]}
                  </text>
                </g>
              ))}
              {scale === 'usage' ? (
                <text className="chart__band-name" x={6} y={plot.top + 11}>
                  {plot.lines[0]?.label}
                </text>
              ) : null}
              {plot.budgets.map((budget) => (
                <g key={budget.key} className="chart__budget">
                  <line x2={innerWidth} y1={plot.y(budget.value)} y2={plot.y(budget.value)} />
                  <text x={innerWidth - 4} y={plot.y(budget.value) - 4} textAnchor="end">
                    {budget.text}
                  </text>
                </g>
              ))}
              {plot.notes.map((note) => (
                <text
                  key={note.key}
                  className="chart__limit-note"
                  x={innerWidth - 4}
                  y={note.edge === 'above' ? plot.top - 4 : plot.bottom - 4}
                  textAnchor="end"
                  fill={note.color}
                >
                  {note.edge === 'above' ? '↑' : '↓'} {note.text}
                </text>
              ))}
            </g>
          ))}
          {xAxis.ticks.map((tick) => (
            <text
              key={tick.key}
              className="chart__label chart__label--x"
              x={tick.x}
              y={innerHeight + 18}
              textAnchor="middle"
            >
              {tick.label}
            </text>
          ))}
          <g clipPath="url(#series-clip)">
            {paths.map((path) => (
              <g key={path.region}>
                {path.limit ? (
                  <path d={path.limit} className="chart__limit" stroke={path.color} />
                ) : null}
                <path
                  d={path.used}
                  className="chart__line"
                  stroke={path.color}
                  data-region={path.region}
                />
              </g>
            ))}
            {hover !== null ? (
              <line className="chart__cursor" x1={hoverX} x2={hoverX} y2={innerHeight} />
            ) : null}
            {hovered
              ? plots.flatMap((plot) =>
                  plot.lines.map(({ region, color }) => {
                    const usage = hovered.regions[region];
                    return usage ? (
                      <circle
                        key={region}
                        cx={hoverX}
                        cy={plot.y(usage.used_size)}
                        r={4}
                        fill={color}
                        className="chart__dot"
                      />
                    ) : null;
                  }),
                )
              : null}
          </g>
        </g>
      </svg>
      <p id="series-chart-keys" className="visually-hidden">
        Arrow keys move between commits, Home and End go to the first and last, Enter opens the
        commit.
      </p>
      <p id="series-chart-point" className="visually-hidden" aria-live="polite">
        {hovered
          ? `${shortSha(hovered.sha)} ${formatDate(hovered.committed_at)}: ${lines
              .flatMap(({ region, label }) =>
                hovered.regions[region]
                  ? [`${label} ${formatBytes(hovered.regions[region].used_size)}`]
                  : [],
              )
              .join(', ')}`
          : ''}
      </p>
      {hovered ? (
        <div
          className="chart__tooltip"
          style={{
            left: Math.max(0, Math.min(MARGIN.left + hoverX + 12, width - 280)),
            top: MARGIN.top,
          }}
        >
          <div className="chart__tooltip-head">
            <code>{shortSha(hovered.sha)}</code>
            <span>{formatDate(hovered.committed_at)}</span>
          </div>
          <p className="chart__tooltip-msg">{hovered.subject ?? ''}</p>
          {lines.map(({ region, label, color }) => {
            const usage = hovered.regions[region];
            if (!usage) return null;
            const before = previous?.regions[region]?.used_size;
            return (
              <div key={region} className="chart__tooltip-row">
                <span className="chart__swatch" style={{ background: color }} />
                <span>{label}</span>
                <strong>{formatBytes(usage.used_size)}</strong>
                <span className="chart__tooltip-pct">
                  {formatPercent(usage.used_size, usage.limit_size)}
                </span>
                {before !== undefined && before !== usage.used_size ? (
                  <span className={usage.used_size > before ? 'chg chg--up' : 'chg chg--down'}>
                    {formatDelta(usage.used_size - before)}
                  </span>
                ) : null}
              </div>
            );
          })}
          <p className="chart__tooltip-hint">Click or press Enter to open this commit</p>
        </div>
      ) : null}
    </div>
  );
}
