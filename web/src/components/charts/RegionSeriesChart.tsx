import {
  line,
  scaleLinear,
  select,
  zoom,
  zoomIdentity,
  type ScaleLinear,
  type ZoomTransform,
} from 'd3';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RegionSeriesPoint } from '../../lib/seriesPoints.ts';
import { formatBytes, formatDate, formatDelta, formatPercent, shortSha } from '../../lib/format.ts';
import {
  limitPlacement,
  limitsDomain,
  tickLabels,
  usageDomain,
  type SeriesScale,
} from '../../lib/seriesScale.ts';

const MIN_HEIGHT = 280;
/** Height of one region's band in the "usage" scale, gap included. */
const BAND_HEIGHT = 150;
const BAND_GAP = 24;
const MARGIN = { top: 16, right: 20, bottom: 28, left: 80 };

export interface SeriesLine {
  region: string;
  color: string;
}

/** One y-axis and the lines drawn against it: all regions ("limits") or one band per region. */
interface Plot {
  key: string;
  lines: SeriesLine[];
  y: ScaleLinear<number, number>;
  top: number;
  bottom: number;
  ticks: number[];
  /** False when a limit lies outside the band: it is noted at the edge instead of drawn. */
  limitsDrawn: boolean;
  /** The latest limit when it is not drawn, written at the band's top or bottom edge. */
  notes: { region: string; color: string; limit: number; edge: 'above' | 'below' }[];
}

const indexedOf = (points: RegionSeriesPoint[]) =>
  points.map((point, index) => [point, index] as [RegionSeriesPoint, number]);

/** The axes of a scale: "limits" shares one from zero, "usage" fits one band to each region. */
function plotsOf(
  scale: SeriesScale,
  points: RegionSeriesPoint[],
  lines: SeriesLine[],
  innerHeight: number,
): Plot[] {
  const usages = (region: string) =>
    points.flatMap((point) => (point.regions[region] ? [point.regions[region]] : []));
  if (scale === 'limits') {
    const values = lines.flatMap(({ region }) =>
      usages(region).map((usage) => ({ used: usage.used_size, limit: usage.limit_size })),
    );
    const y = scaleLinear().domain(limitsDomain(values)).range([innerHeight, 0]).nice();
    const ticks = y.ticks(5);
    return [
      { key: 'all', lines, y, top: 0, bottom: innerHeight, ticks, limitsDrawn: true, notes: [] },
    ];
  }
  const band = innerHeight / Math.max(1, lines.length);
  return lines.map((series, index) => {
    const used = usages(series.region);
    const top = index * band + (index === 0 ? 0 : BAND_GAP / 2);
    const bottom = (index + 1) * band - (index === lines.length - 1 ? 0 : BAND_GAP / 2);
    // Not niced: rounding the domain out to tick steps would take back the room fitting gained.
    const y = scaleLinear()
      .domain(usageDomain(used.map((usage) => usage.used_size)))
      .range([bottom, top]);
    const domain = y.domain() as [number, number];
    // A limit is drawn when every commit's limit lies in the band, else the latest one is noted.
    const drawn = used.every((usage) =>
      ['inside', 'none'].includes(limitPlacement(usage.limit_size, domain)),
    );
    const latest = used.at(-1)?.limit_size ?? 0;
    const edge = limitPlacement(latest, domain);
    return {
      key: series.region,
      lines: [series],
      y,
      top,
      bottom,
      ticks: y.ticks(3),
      limitsDrawn: drawn,
      notes:
        !drawn && (edge === 'above' || edge === 'below')
          ? [{ region: series.region, color: series.color, limit: latest, edge }]
          : [],
    };
  });
}

/**
 * Used bytes of the chosen regions over commits (oldest left), each with its limit as a dashed
 * line. Commits are evenly spaced so bursts of commits stay readable. In the "usage" scale each
 * region gets a band with its own axis fitted to its used bytes (a limit out of range is noted
 * at the band's edge); in "limits" all share one axis from zero. Wheel or drag zooms and pans
 * along the commits; hovering shows the commit; clicking opens it.
 */
export function RegionSeriesChart({
  points,
  lines,
  scale,
  onOpen,
}: {
  points: RegionSeriesPoint[];
  lines: SeriesLine[];
  scale: SeriesScale;
  onOpen(sha: string): void;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(800);
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);
  const [hover, setHover] = useState<number | null>(null);

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

  const baseX = useMemo(
    () =>
      scaleLinear()
        .domain([0, Math.max(1, points.length - 1)])
        .range([0, innerWidth]),
    [points.length, innerWidth],
  );
  const x = transform.rescaleX(baseX);

  const plots = useMemo(
    () => plotsOf(scale, points, lines, innerHeight),
    [scale, points, lines, innerHeight],
  );

  const paths = useMemo(() => {
    const indexed = indexedOf(points);
    return plots.flatMap((plot) =>
      plot.lines.map(({ region, color }) => {
        const used = line<[RegionSeriesPoint, number]>()
          .defined(([point]) => point.regions[region] !== undefined)
          .x(([, index]) => x(index))
          .y(([point]) => plot.y(point.regions[region]?.used_size ?? 0));
        const limit = line<[RegionSeriesPoint, number]>()
          .defined(([point]) => (point.regions[region]?.limit_size ?? 0) > 0)
          .x(([, index]) => x(index))
          .y(([point]) => plot.y(point.regions[region]?.limit_size ?? 0));
        return {
          region,
          color,
          used: used(indexed) ?? '',
          limit: plot.limitsDrawn ? (limit(indexed) ?? '') : '',
        };
      }),
    );
  }, [plots, points, x]);

  const nearest = (clientX: number) => {
    const svg = svgRef.current;
    if (!svg || points.length === 0) return null;
    const offset = clientX - svg.getBoundingClientRect().left - MARGIN.left;
    const index = Math.round(x.invert(offset));
    return Math.min(points.length - 1, Math.max(0, index));
  };

  const hovered = hover === null ? null : points[hover];
  const previous = hover === null || hover === 0 ? null : points[hover - 1];
  const ticks = x
    .ticks(Math.max(2, Math.floor(innerWidth / 110)))
    .filter((tick) => Number.isInteger(tick) && tick >= 0 && tick < points.length);

  return (
    <div className="chart">
      <svg
        ref={svgRef}
        className="chart__svg"
        width="100%"
        height={height}
        role="img"
        aria-label="Region usage over commits"
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
          {plots.map((plot) => {
            const labels = tickLabels(plot.ticks);
            return (
              <g key={plot.key} className="chart__axis" data-region={plot.key}>
                {plot.ticks.map((tick, index) => (
                  <g key={tick} transform={`translate(0,${plot.y(tick)})`}>
                    <line className="chart__grid" x2={innerWidth} />
                    <text className="chart__label" x={-8} dy="0.32em" textAnchor="end">
                      {labels[index]}
                    </text>
                  </g>
                ))}
                {scale === 'usage' ? (
                  <text className="chart__band-name" x={6} y={plot.top + 11}>
                    {plot.key}
                  </text>
                ) : null}
                {plot.notes.map((note) => (
                  <text
                    key={note.region}
                    className="chart__limit-note"
                    x={innerWidth - 4}
                    y={note.edge === 'above' ? plot.top - 4 : plot.bottom - 4}
                    textAnchor="end"
                    fill={note.color}
                  >
                    {note.edge === 'above' ? '↑' : '↓'} limit {formatBytes(note.limit)}
                  </text>
                ))}
              </g>
            );
          })}
          {ticks.map((tick) => (
            <text
              key={tick}
              className="chart__label"
              x={x(tick)}
              y={innerHeight + 18}
              textAnchor="middle"
            >
              {points[tick]?.committed_at
                ? new Date(points[tick]!.committed_at!).toLocaleDateString('en-GB', {
                    day: '2-digit',
                    month: 'short',
                  })
                : shortSha(points[tick]?.sha ?? '')}
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
              <line className="chart__cursor" x1={x(hover)} x2={x(hover)} y2={innerHeight} />
            ) : null}
            {hovered
              ? plots.flatMap((plot) =>
                  plot.lines.map(({ region, color }) => {
                    const usage = hovered.regions[region];
                    return usage ? (
                      <circle
                        key={region}
                        cx={x(hover!)}
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
      {hovered ? (
        <div
          className="chart__tooltip"
          style={{
            left: Math.min(MARGIN.left + x(hover!) + 12, width - 280),
            top: MARGIN.top,
          }}
        >
          <div className="chart__tooltip-head">
            <code>{shortSha(hovered.sha)}</code>
            <span>{formatDate(hovered.committed_at)}</span>
          </div>
          <p className="chart__tooltip-msg">{hovered.subject ?? ''}</p>
          {lines.map(({ region, color }) => {
            const usage = hovered.regions[region];
            if (!usage) return null;
            const before = previous?.regions[region]?.used_size;
            return (
              <div key={region} className="chart__tooltip-row">
                <span className="chart__swatch" style={{ background: color }} />
                <span>{region}</span>
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
          <p className="chart__tooltip-hint">Click to open this commit</p>
        </div>
      ) : null}
    </div>
  );
}
