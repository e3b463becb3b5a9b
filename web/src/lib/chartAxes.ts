import { range, tickStep } from 'd3';

// Axis ticks of the charts: byte values that are round in the unit they are labelled in, and
// time labels that carry the year whenever the range spans more than one.

const UNITS = ['B', 'KiB', 'MiB', 'GiB'];

export interface Ticks {
  values: number[];
  labels: string[];
}

/**
 * About `count` ticks across a byte domain, at round multiples of the unit that fits its span
 * (bytes for a range of a few hundred bytes, KiB for tens of KiB …): 40, 45, 50 KiB rather
 * than 39.1, 48.8, 58.6 KiB.
 */
export function byteTicks([low, high]: readonly [number, number], count: number): Ticks {
  let power = 0;
  while (power < UNITS.length - 1 && (high - low) / 1024 ** (power + 1) >= 1) power++;
  const unit = 1024 ** power;
  const step = tickStep(low / unit, high / unit, count);
  if (!Number.isFinite(step) || step <= 0) return { values: [], labels: [] };
  const first = Math.ceil(low / unit / step) * step;
  const inUnit = range(first, high / unit + step / 1e6, step);
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return {
    values: inUnit.map((value) => value * unit),
    labels: inUnit.map(
      (value) =>
        `${value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })} ${UNITS[power]}`,
    ),
  };
}

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });

/**
 * A label for a time tick: the year alone at a year's start; month and year while the range
 * spans years; day and month within one year.
 */
export function timeLabel(tick: Date, [start, end]: readonly [Date, Date]): string {
  const year = tick.getUTCFullYear();
  const sameYear = start.getUTCFullYear() === end.getUTCFullYear();
  if (tick.getUTCMonth() === 0 && tick.getUTCDate() === 1 && !sameYear) return String(year);
  const month = MONTH.format(tick);
  if (!sameYear) return `${month} ${year}`;
  return `${String(tick.getUTCDate()).padStart(2, '0')} ${month}`;
}
