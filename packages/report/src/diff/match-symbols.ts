import type { ReportSymbol, SymbolMatchLevel } from '@memtrail/contracts';
import { stripCloneSuffixes } from '../demangle/index.js';

export interface SymbolPair {
  old: number | null;
  new: number | null;
  level: SymbolMatchLevel | null;
}

/**
 * Chromium SuperSize-style cascade, each pass over what the previous left unmatched:
 * 1. name + source file + section, 2. name, 3. name without clone suffixes. Passes 1 and 2 both
 * refine the name, so they run per name bucket (no composite keys for 40k symbols). Several
 * symbols under one key (statics with the same name in several files) pair up in address order.
 */
export function matchSymbols(
  oldSyms: readonly ReportSymbol[],
  newSyms: readonly ReportSymbol[],
): SymbolPair[] {
  const pairs: SymbolPair[] = [];
  const byOldAddress = (a: number, b: number): number => oldSyms[a]!.address - oldSyms[b]!.address;
  const byNewAddress = (a: number, b: number): number => newSyms[a]!.address - newSyms[b]!.address;
  const oldByName = bucketize(oldSyms.keys(), oldSyms, (s) => s.name);
  const newByName = bucketize(newSyms.keys(), newSyms, (s) => s.name);
  const oldLeft: number[] = [];
  const newLeft: number[] = [];
  for (const [name, news] of newByName) {
    const olds = oldByName.get(name);
    if (!olds) {
      newLeft.push(...news);
      continue;
    }
    oldByName.delete(name);
    const [o0, n0] = [olds[0]!, news[0]!];
    if (olds.length === 1 && news.length === 1) {
      const same = sameOrigin(oldSyms[o0]!, newSyms[n0]!);
      pairs.push({ old: o0, new: n0, level: same ? 1 : 2 });
      continue;
    }
    olds.sort(byOldAddress);
    news.sort(byNewAddress);
    const restOld: number[] = [];
    const restNew: number[] = [];
    const pass1 = bucketize(olds, oldSyms, originKey);
    for (const j of news) {
      const candidates = pass1.get(originKey(newSyms[j]!));
      const i = candidates?.shift();
      if (i === undefined) restNew.push(j);
      else pairs.push({ old: i, new: j, level: 1 });
    }
    for (const candidates of pass1.values()) restOld.push(...candidates);
    restOld.sort(byOldAddress);
    const n = Math.min(restOld.length, restNew.length);
    for (let m = 0; m < n; m++) pairs.push({ old: restOld[m]!, new: restNew[m]!, level: 2 });
    oldLeft.push(...restOld.slice(n));
    newLeft.push(...restNew.slice(n));
  }
  for (const olds of oldByName.values()) oldLeft.push(...olds);

  const oldStripped = bucketize(oldLeft, oldSyms, (s) => stripCloneSuffixes(s.name));
  for (const candidates of oldStripped.values())
    if (candidates.length > 1) candidates.sort(byOldAddress);
  for (const j of newLeft.sort(byNewAddress)) {
    const candidates = oldStripped.get(stripCloneSuffixes(newSyms[j]!.name));
    const i = candidates?.shift();
    pairs.push(i === undefined ? { old: null, new: j, level: null } : { old: i, new: j, level: 3 });
  }
  for (const olds of oldStripped.values())
    for (const i of olds) pairs.push({ old: i, new: null, level: null });
  return pairs;
}

function sameOrigin(a: ReportSymbol, b: ReportSymbol): boolean {
  return (a.source_file ?? '') === (b.source_file ?? '') && (a.section ?? '') === (b.section ?? '');
}

function originKey(s: ReportSymbol): string {
  // Older CLIs may omit fields; missing and empty compare equal.
  return `${s.source_file ?? ''}\u0000${s.section ?? ''}`;
}

function bucketize(
  indices: Iterable<number>,
  syms: readonly ReportSymbol[],
  key: (s: ReportSymbol) => string,
): Map<string, number[]> {
  const buckets = new Map<string, number[]>();
  for (const i of indices) {
    const k = key(syms[i]!);
    const bucket = buckets.get(k);
    if (bucket) bucket.push(i);
    else buckets.set(k, [i]);
  }
  return buckets;
}
