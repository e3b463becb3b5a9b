import { formatBytes } from './format.ts';
import { STORAGE_KEYS } from './storageKeys.ts';

/**
 * The y-axis of the region usage chart. A region is rarely near its limit, so an axis from zero
 * to the limit flattens every change of a few hundred bytes into one pixel; "usage" fits each
 * region's axis to its used bytes instead, "limits" shows how close the regions are to full.
 */
export type SeriesScale = 'usage' | 'limits';

export const SERIES_SCALES: readonly { value: SeriesScale; label: string; hint: string }[] = [
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

/**
 * Labels of y ticks: KiB/MiB as elsewhere, or exact bytes when a fitted axis is so narrow that
 * rounded labels would repeat.
 */
export function tickLabels(ticks: readonly number[]): string[] {
  const rounded = ticks.map(formatBytes);
  if (new Set(rounded).size === rounded.length) return rounded;
  return ticks.map((tick) => `${tick.toLocaleString('en-US')} B`);
}

/**
 * The remembered scale; anything unknown gives the default, and so does storage that throws
 * (browsers may refuse even the access to `localStorage`, hence a function giving it).
 */
export function readSeriesScale(storage: () => Pick<Storage, 'getItem'>): SeriesScale {
  try {
    const stored = storage().getItem(STORAGE_KEYS.seriesScale);
    return SERIES_SCALES.find(({ value }) => value === stored)?.value ?? DEFAULT_SERIES_SCALE;
  } catch {
    return DEFAULT_SERIES_SCALE;
  }
}

/** Remembers the scale; a storage that refuses (private mode, quota) only loses the preference. */
export function writeSeriesScale(
  storage: () => Pick<Storage, 'setItem'>,
  scale: SeriesScale,
): void {
  try {
    storage().setItem(STORAGE_KEYS.seriesScale, scale);
  } catch {
    // The choice still applies to this page; only remembering it failed.
  }
}
