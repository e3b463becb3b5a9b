/**
 * A small seeded random generator (mulberry32) for tests and benchmarks: the same seed gives the
 * same firmware, histories and uploads on every machine, so a failure replays from its seed.
 * A subpath of its own (`@memtrail/testing/random`) that imports nothing, so unit tests and
 * benchmarks take it without the store clients the rest of this package loads.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
