/**
 * Values derived from a target's stored reports, kept per target while its stamp stays the same
 * (a value, or an object compared by identity; the callers derive it from Postgres on every
 * use, so a changed target is re-read by the very next read; nothing is served stale by time).
 * A failed load is forgotten; beyond `maxTargets` the least recently used target is dropped.
 */
export class StampedCache<T> {
  private readonly cache = new Map<string, { stamp: unknown; value: Promise<T> }>();

  constructor(private readonly maxTargets: number) {}

  get(targetId: string, stamp: unknown, load: () => Promise<T>): Promise<T> {
    const cached = this.cache.get(targetId);
    // Map order is recency order.
    this.cache.delete(targetId);
    if (cached && cached.stamp === stamp) {
      this.cache.set(targetId, cached);
      return cached.value;
    }
    const entry = { stamp, value: load() };
    this.cache.set(targetId, entry);
    entry.value.catch(() => {
      if (this.cache.get(targetId) === entry) this.cache.delete(targetId);
    });
    while (this.cache.size > this.maxTargets) this.cache.delete(this.cache.keys().next().value!);
    return entry.value;
  }
}
