import { formatBytes, formatDelta, formatPercent, usageLevel } from '../lib/format.ts';

/** One region's used bytes against its limit, coloured by how full it is. */
export function UsageBar({
  name,
  used,
  limit,
  delta,
}: {
  name: string;
  used: number;
  limit: number;
  delta?: number;
}) {
  const share = limit > 0 ? Math.min(1, used / limit) : 0;
  return (
    <div className="usage">
      <div className="usage__head">
        <span className="usage__name">{name}</span>
        <span className="usage__figures">
          {formatBytes(used)} / {limit > 0 ? formatBytes(limit) : 'no limit'}
          <strong className={`usage__pct usage__pct--${usageLevel(used, limit)}`}>
            {formatPercent(used, limit)}
          </strong>
        </span>
      </div>
      <div
        className="usage__track"
        role="meter"
        aria-label={`${name} usage`}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
      >
        <div
          className={`usage__fill usage__fill--${usageLevel(used, limit)}`}
          style={{ width: `${share * 100}%` }}
        />
      </div>
      {delta !== undefined && delta !== 0 ? <Delta bytes={delta} /> : null}
    </div>
  );
}

/** A signed byte change: growth red, shrink green. */
export function Delta({ bytes }: { bytes: number }) {
  const sign = bytes > 0 ? 'up' : bytes < 0 ? 'down' : 'zero';
  return <span className={`chg chg--${sign}`}>{formatDelta(bytes)}</span>;
}
