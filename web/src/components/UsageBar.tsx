import type { RegionBudget } from '../lib/budgets.ts';
import { formatBytes, formatDelta, formatPercent, usageLevel } from '../lib/format.ts';

/**
 * One region's used bytes against its limit, coloured by how full it is, with the budgets that
 * apply marked on the bar (and in red with the overshoot when one is exceeded).
 */
export function UsageBar({
  name,
  used,
  limit,
  delta,
  budgets = [],
}: {
  name: string;
  used: number;
  limit: number;
  delta?: number;
  budgets?: RegionBudget[];
}) {
  const scale = Math.max(limit, used, ...budgets.map((b) => b.limit), 1);
  const exceeded = budgets.some((b) => b.exceeded_by > 0);
  const level = exceeded ? 'bad' : usageLevel(used, limit);
  return (
    <div className={`usage${exceeded ? ' usage--over-budget' : ''}`}>
      <div className="usage__head">
        <span className="usage__name">{name}</span>
        <span className="usage__figures">
          {formatBytes(used)} / {limit > 0 ? formatBytes(limit) : 'no limit'}
          <strong className={`usage__pct usage__pct--${level}`}>
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
          className={`usage__fill usage__fill--${level}`}
          style={{ width: `${(Math.min(used, scale) / scale) * 100}%` }}
        />
        {budgets.map((b) => (
          <span
            key={b.budget}
            className="usage__budget"
            style={{ left: `${(b.limit / scale) * 100}%` }}
            aria-hidden="true"
          />
        ))}
      </div>
      {delta !== undefined && delta !== 0 ? <Delta bytes={delta} /> : null}
      {budgets.map((b) => (
        <p key={b.budget} className={`usage__budget-note${b.exceeded_by > 0 ? ' chg--up' : ''}`}>
          Budget “{b.budget}” {formatBytes(b.limit)}
          {b.exceeded_by > 0 ? ` — exceeded by ${formatBytes(b.exceeded_by)}` : ' — within'}
        </p>
      ))}
    </div>
  );
}

/** A signed byte change: growth red, shrink green. */
export function Delta({ bytes }: { bytes: number }) {
  const sign = bytes > 0 ? 'up' : bytes < 0 ? 'down' : 'zero';
  return <span className={`chg chg--${sign}`}>{formatDelta(bytes)}</span>;
}
