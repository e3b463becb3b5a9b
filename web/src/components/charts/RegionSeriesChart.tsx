import { line, max, scaleLinear, select, zoom, zoomIdentity, type ZoomTransform } from 'd3';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RegionSeriesPoint } from '../../lib/seriesPoints.ts';
import { formatBytes, formatDate, formatDelta, formatPercent, shortSha } from '../../lib/format.ts';

const HEIGHT = 280;
const MARGIN = { top: 16, right: 20, bottom: 28, left: 72 };

export interface SeriesLine {
  region: string;
  color: string;
}

/**
 * Used bytes of the chosen regions over commits (oldest left), each with its limit as a dashed
 * line. Commits are evenly spaced so bursts of commits stay readable. Wheel or drag zooms and
 * pans; hovering shows the commit; clicking opens it.
 */
export function RegionSeriesChart({
  points,
  lines,
  onOpen,
}: {
  points: RegionSeriesPoint[];
  lines: SeriesLine[];
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

  const innerWidth = Math.max(100, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;

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

  const y = useMemo(() => {
    const top =
      max(points, (point) =>
        max(lines, ({ region }) => {
          const usage = point.regions[region];
          return usage ? Math.max(usage.used_size, usage.limit_size) : 0;
        }),
      ) ?? 1;
    return scaleLinear()
      .domain([0, top * 1.05 || 1])
      .range([innerHeight, 0])
      .nice();
  }, [points, lines, innerHeight]);

  const paths = useMemo(
    () =>
      lines.map(({ region, color }) => {
        const defined = (point: RegionSeriesPoint) => point.regions[region] !== undefined;
        const used = line<[RegionSeriesPoint, number]>()
          .defined(([point]) => defined(point))
          .x(([, index]) => x(index))
          .y(([point]) => y(point.regions[region]?.used_size ?? 0));
        const limit = line<[RegionSeriesPoint, number]>()
          .defined(([point]) => (point.regions[region]?.limit_size ?? 0) > 0)
          .x(([, index]) => x(index))
          .y(([point]) => y(point.regions[region]?.limit_size ?? 0));
        const indexed = points.map((point, index) => [point, index] as [RegionSeriesPoint, number]);
        return { region, color, used: used(indexed) ?? '', limit: limit(indexed) ?? '' };
      }),
    [lines, points, x, y],
  );

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
        height={HEIGHT}
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
          {y.ticks(5).map((tick) => (
            <g key={tick} transform={`translate(0,${y(tick)})`}>
              <line className="chart__grid" x2={innerWidth} />
              <text className="chart__label" x={-8} dy="0.32em" textAnchor="end">
                {formatBytes(tick)}
              </text>
            </g>
          ))}
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
                <path d={path.limit} className="chart__limit" stroke={path.color} />
                <path d={path.used} className="chart__line" stroke={path.color} />
              </g>
            ))}
            {hover !== null ? (
              <line className="chart__cursor" x1={x(hover)} x2={x(hover)} y2={innerHeight} />
            ) : null}
            {hovered
              ? lines.map(({ region, color }) => {
                  const usage = hovered.regions[region];
                  return usage ? (
                    <circle
                      key={region}
                      cx={x(hover!)}
                      cy={y(usage.used_size)}
                      r={4}
                      fill={color}
                      className="chart__dot"
                    />
                  ) : null;
                })
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
