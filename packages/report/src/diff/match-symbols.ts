import type { ReportSymbol, SymbolMatchLevel } from '@memtrail/contracts';
import { stripCloneSuffixes } from '../demangle/index.js';

export interface SymbolPair {
  old: number | null;
  new: number | null;
  level: SymbolMatchLevel | null;
}

type KeyFn = (sym: ReportSymbol) => string;

/**
 * Chromium SuperSize-style cascade: each pass pairs symbols left unmatched by the previous one.
 * Within one key, several symbols (statics with the same name in several files) pair up in
 * address order.
 */
const PASSES: Array<[SymbolMatchLevel, KeyFn]> = [
  [1, (s) => `${s.name}\u0000${s.source_file}\u0000${s.section}`],
  [2, (s) => s.name],
  [3, (s) => stripCloneSuffixes(s.name)],
];

export function matchSymbols(
  oldSyms: readonly ReportSymbol[],
  newSyms: readonly ReportSymbol[],
): SymbolPair[] {
  const pairs: SymbolPair[] = [];
  let oldLeft = oldSyms.map((_, i) => i);
  let newLeft = newSyms.map((_, i) => i);
  for (const [level, key] of PASSES) {
    const buckets = new Map<string, number[]>();
    for (const i of oldLeft) {
      const k = key(oldSyms[i]!);
      const bucket = buckets.get(k);
      if (bucket) bucket.push(i);
      else buckets.set(k, [i]);
    }
    for (const bucket of buckets.values())
      if (bucket.length > 1) bucket.sort((a, b) => oldSyms[a]!.address - oldSyms[b]!.address);
    const matchedOld = new Set<number>();
    const unmatchedNew: number[] = [];
    const newSorted = [...newLeft].sort((a, b) => newSyms[a]!.address - newSyms[b]!.address);
    const cursor = new Map<string, number>();
    for (const j of newSorted) {
      const k = key(newSyms[j]!);
      const bucket = buckets.get(k);
      const at = cursor.get(k) ?? 0;
      if (bucket && at < bucket.length) {
        cursor.set(k, at + 1);
        matchedOld.add(bucket[at]!);
        pairs.push({ old: bucket[at]!, new: j, level });
      } else unmatchedNew.push(j);
    }
    oldLeft = oldLeft.filter((i) => !matchedOld.has(i));
    newLeft = unmatchedNew;
  }
  for (const i of oldLeft) pairs.push({ old: i, new: null, level: null });
  for (const j of newLeft) pairs.push({ old: null, new: j, level: null });
  return pairs;
}
