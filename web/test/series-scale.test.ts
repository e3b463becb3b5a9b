import { describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../src/lib/storageKeys.ts';
import { byteTicks, timeLabel } from '../src/lib/chartAxes.ts';
import {
  limitPlacement,
  limitsDomain,
  readChoice,
  SERIES_SCALES,
  usageDomain,
  writeChoice,
} from '../src/lib/seriesScale.ts';

const readSeriesScale = (storage: () => Pick<Storage, 'getItem'>) =>
  readChoice(storage, STORAGE_KEYS.seriesScale, SERIES_SCALES, 'usage');
const writeSeriesScale = (storage: () => Pick<Storage, 'setItem'>, scale: string) =>
  writeChoice(storage, STORAGE_KEYS.seriesScale, scale);

const KIB = 1024;

describe('usage scale domain', () => {
  it('fits the used bytes with 8 % of their range free on each side', () => {
    // 300 KiB of a 1 MiB flash, changing by a few hundred bytes.
    const used = [300 * KIB, 300 * KIB + 400, 300 * KIB + 160, 300 * KIB + 1000];
    const [low, high] = usageDomain(used);
    expect(low).toBe(300 * KIB - 80);
    expect(high).toBe(300 * KIB + 1080);
    // A 240 B change spans a fifth of the axis instead of 0.02 % of it.
    expect(240 / (high - low)).toBeGreaterThan(0.2);
  });

  it('keeps a level line off the edges and never goes below zero', () => {
    expect(usageDomain([4096, 4096])).toEqual([4096 - 16, 4096 + 16]);
    expect(usageDomain([10, 20])).toEqual([0, 36]);
    expect(usageDomain([])).toEqual([0, 1]);
  });
});

describe('limits scale domain', () => {
  it('runs from zero to the largest limit or used size, plus 5 %', () => {
    expect(
      limitsDomain([
        { used: 632, limit: 256 * KIB },
        { used: 2560, limit: 64 * KIB },
      ]),
    ).toEqual([0, 256 * KIB * 1.05]);
    // An overflowing region: used beyond its limit still fits.
    expect(limitsDomain([{ used: 70 * KIB, limit: 64 * KIB }])).toEqual([0, 70 * KIB * 1.05]);
    expect(limitsDomain([])).toEqual([0, 1]);
  });
});

describe('limit placement', () => {
  it('says whether a limit is drawn inside the domain or noted at an edge', () => {
    expect(limitPlacement(256 * KIB, usageDomain([100 * KIB, 101 * KIB]))).toBe('above');
    expect(limitPlacement(64 * KIB, usageDomain([60 * KIB, 66 * KIB]))).toBe('inside');
    expect(limitPlacement(32 * KIB, usageDomain([60 * KIB, 66 * KIB]))).toBe('below');
    expect(limitPlacement(0, [0, 100])).toBe('none');
  });
});

describe('axis ticks', () => {
  it('fall on round values of the unit they are labelled in', () => {
    // The axis: 39.1 to 58.6 KiB ticked at decimal bytes read 39.1/48.8/58.6 KiB.
    expect(byteTicks([40_000, 60_000], 4)).toEqual({
      values: [40 * KIB, 45 * KIB, 50 * KIB, 55 * KIB],
      labels: ['40 KiB', '45 KiB', '50 KiB', '55 KiB'],
    });
    expect(byteTicks([0, 2.5 * 1024 * KIB], 5).labels).toEqual([
      '0.0 MiB',
      '0.5 MiB',
      '1.0 MiB',
      '1.5 MiB',
      '2.0 MiB',
      '2.5 MiB',
    ]);
    // A narrow fitted axis is labelled in exact bytes.
    expect(byteTicks([300_000, 300_500], 3)).toEqual({
      values: [300_000, 300_200, 300_400],
      labels: ['300,000 B', '300,200 B', '300,400 B'],
    });
  });

  it('carry the year when the range spans years', () => {
    const at = (iso: string) => new Date(iso);
    const years: [Date, Date] = [at('2014-03-01T00:00:00Z'), at('2026-05-01T00:00:00Z')];
    expect(timeLabel(at('2016-01-01T00:00:00Z'), years)).toBe('2016');
    expect(timeLabel(at('2016-05-01T00:00:00Z'), years)).toBe('May 2016');
    const weeks: [Date, Date] = [at('2026-03-01T00:00:00Z'), at('2026-05-20T00:00:00Z')];
    expect(timeLabel(at('2026-05-08T00:00:00Z'), weeks)).toBe('08 May');
  });
});

describe('remembered scale', () => {
  it('round-trips through storage under the product-prefixed key; unknown values give usage', () => {
    const map = new Map<string, string>();
    const storage = () => ({
      getItem: (key: string) => map.get(key) ?? null,
      setItem: (key: string, value: string) => void map.set(key, value),
    });
    expect(readSeriesScale(storage)).toBe('usage');
    writeSeriesScale(storage, 'limits');
    expect(map.get(STORAGE_KEYS.seriesScale)).toBe('limits');
    expect(STORAGE_KEYS.seriesScale.startsWith('memtrail_')).toBe(true);
    expect(readSeriesScale(storage)).toBe('limits');
    map.set(STORAGE_KEYS.seriesScale, 'log');
    expect(readSeriesScale(storage)).toBe('usage');
  });

  it('falls back to usage when the browser refuses storage', () => {
    const refused = () => {
      throw new Error('SecurityError: localStorage is disabled');
    };
    expect(readSeriesScale(refused)).toBe('usage');
    expect(() => writeSeriesScale(refused, 'limits')).not.toThrow();
  });
});
