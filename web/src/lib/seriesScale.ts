/**
 * The y-axis of the region usage chart. A region is rarely near its limit, so an axis from zero
 * to the limit flattens every change of a few hundred bytes into one pixel; "usage" fits each
 * region's axis to its used bytes instead, "limits" shows how close the regions are to full.
 */
export type SeriesScale = 'usage' | 'limits';

export const SERIES_SCALES: readonly ChoiceOption<SeriesScale>[] = [
  {
    value: 'usage',
    label: 'Usage',
    hint: 'Each region on its own axis fitted to its used bytes, so small changes show',
  },
  { value: 'limits', label: 'Limits', hint: 'One axis from zero to the region limits' },
];

export const DEFAULT_SERIES_SCALE: SeriesScale = 'usage';

/** Share of the used range left free above and below the lines. */
const PADDING = 0.08;
/** Least padding, so a region whose usage never changed is still drawn as a level line. */
const MIN_PADDING_BYTES = 16;

/** The y-domain of "usage": the used bytes' range with some room, never below zero. */
export function usageDomain(used: readonly number[]): [number, number] {
  if (used.length === 0) return [0, 1];
  let low = Infinity;
  let high = -Infinity;
  for (const value of used) {
    low = Math.min(low, value);
    high = Math.max(high, value);
  }
  const pad = Math.max((high - low) * PADDING, MIN_PADDING_BYTES);
  return [Math.max(0, low - pad), high + pad];
}

/** The y-domain of "limits": zero to the largest used size or limit, plus 5 %. */
export function limitsDomain(values: readonly { used: number; limit: number }[]): [number, number] {
  let top = 0;
  for (const { used, limit } of values) top = Math.max(top, used, limit);
  return [0, top * 1.05 || 1];
}

/** Where a region's limit lies relative to a domain: drawn inside it, or noted at an edge. */
export function limitPlacement(limit: number, [low, high]: readonly [number, number]) {
  if (limit <= 0) return 'none';
  if (limit > high) return 'above';
  if (limit < low) return 'below';
  return 'inside';
}

/** A choice among labelled options, as the segmented controls offer them. */
export interface ChoiceOption<T extends string> {
  value: T;
  label: string;
  hint: string;
}

/**
 * The x-axis of the usage chart: commit time (gaps in the history show as gaps), or one even
 * step per commit (bursts of commits stay readable).
 */
export type SeriesAxis = 'time' | 'commit';

export const SERIES_AXES: readonly ChoiceOption<SeriesAxis>[] = [
  { value: 'time', label: 'Time', hint: 'Commits placed by their commit date' },
  { value: 'commit', label: 'By commit', hint: 'One even step per commit, whatever its date' },
];

export const DEFAULT_SERIES_AXIS: SeriesAxis = 'time';

/**
 * A remembered choice; anything unknown gives the default, and so does storage that throws
 * (browsers may refuse even the access to `localStorage`, hence a function giving it).
 */
export function readChoice<T extends string>(
  storage: () => Pick<Storage, 'getItem'>,
  key: string,
  options: readonly ChoiceOption<T>[],
  fallback: T,
): T {
  try {
    const stored = storage().getItem(key);
    return options.find(({ value }) => value === stored)?.value ?? fallback;
  } catch {
    return fallback;
  }
}

/** Remembers a choice; a storage that refuses (private mode, quota) only loses the preference. */
export function writeChoice(storage: () => Pick<Storage, 'setItem'>, key: string, value: string) {
  try {
    storage().setItem(key, value);
  } catch {
    // The choice still applies to this page; only remembering it failed.
  }
}
