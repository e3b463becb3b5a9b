import { describe, expect, it } from '@jest/globals';
import type { ScopedMutator } from 'swr';
import type { CoreApi } from '../src/lib/api/core.ts';
import { cacheKey, headsKey, parseHeadsKey, splitCacheKey } from '../src/lib/store/cacheKeys.ts';
import {
  BACKGROUND_REFRESH_MS,
  CACHE_POLICY,
  HEADS_KEY_PREFIX_LENGTH,
  STORAGE_PREFIX,
  STORE_MESSAGES,
  type DataKind,
} from '../src/lib/store/cachePolicy.ts';
import { clearPersistedCaches, DataCache } from '../src/lib/store/dataCache.ts';
import { createFetchers } from '../src/lib/store/fetchers.ts';
import {
  backgroundRefetch,
  backgroundRefreshApplies,
  cleanupApplies,
  cleanupCaches,
  refreshStale,
} from '../src/lib/store/maintenance.ts';
import { MemoryStorage } from './server.ts';

// The cache rules of spec §4 and §9 on the SWR cache provider itself, written to as SWR writes
// to it. test/data-hooks.test.ts checks the same rules through the hooks and SWR.

const MINUTE = 60_000;

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

/** Stores data as SWR does when a fetch or mutate ends. */
const store = (cache: DataCache, kind: DataKind, key: string, data: unknown) =>
  cache.set(cacheKey(kind, key), { ...cache.get(cacheKey(kind, key)), data, error: undefined });

const fresh = (cache: DataCache, kind: DataKind, key: string) => cache.isFresh(cacheKey(kind, key));

describe('cache keys', () => {
  it('name the kind for SWR and leave other SWR keys alone', () => {
    expect(splitCacheKey(cacheKey('heads', 'p:a|b'))).toEqual({ kind: 'heads', key: 'p:a|b' });
    expect(splitCacheKey('organizations')).toBeNull();
    expect(splitCacheKey('members|x')).toBeNull();
    expect(splitCacheKey('@"resource","p",')).toBeNull();
  });
});

describe('cache lifetimes (spec §9)', () => {
  it('match the spec: projects 30 min, targets 10, heads 5, commits 60, others unlimited', () => {
    expect(CACHE_POLICY.projects.lifetimeMs).toBe(30 * MINUTE);
    expect(CACHE_POLICY.targets.lifetimeMs).toBe(10 * MINUTE);
    expect(CACHE_POLICY.heads.lifetimeMs).toBe(5 * MINUTE);
    expect(CACHE_POLICY.commits.lifetimeMs).toBe(60 * MINUTE);
    for (const kind of ['memoryReports', 'commitMessages', 'comparisons'] as const) {
      expect(CACHE_POLICY[kind].lifetimeMs).toBeNull();
    }
    expect(BACKGROUND_REFRESH_MS).toBe(120_000);
    expect(HEADS_KEY_PREFIX_LENGTH).toBe(36);
  });

  it('an entry is fresh until its lifetime has passed', () => {
    const time = clock();
    const cache = new DataCache({ now: time.now });
    expect(fresh(cache, 'heads', 'p:t')).toBe(false);
    store(cache, 'heads', 'p:t', ['h1']);
    time.state.now += 5 * MINUTE - 1;
    expect(fresh(cache, 'heads', 'p:t')).toBe(true);
    time.state.now += 1;
    expect(fresh(cache, 'heads', 'p:t')).toBe(false);
  });

  it('a successful fetch of equal data makes the entry fresh again', () => {
    const time = clock();
    const cache = new DataCache({ now: time.now });
    store(cache, 'targets', 'p', [{ name: 'fw' }]);
    time.state.now += 10 * MINUTE;
    expect(fresh(cache, 'targets', 'p')).toBe(false);
    cache.fetched(cacheKey('targets', 'p'));
    expect(fresh(cache, 'targets', 'p')).toBe(true);
    expect(cache.entry('targets', 'p')?.timestamp).toBe(time.state.now);
  });

  it('never expire memory reports, messages and comparisons, but a pending report is stale', () => {
    const time = clock();
    const cache = new DataCache({ now: time.now });
    for (const kind of ['memoryReports', 'commitMessages', 'comparisons'] as const) {
      store(cache, kind, 'r', { symbols: [] });
    }
    time.state.now += 1000 * 24 * 60 * MINUTE;
    for (const kind of ['memoryReports', 'commitMessages', 'comparisons'] as const) {
      expect(fresh(cache, kind, 'r')).toBe(true);
    }
    store(cache, 'memoryReports', 'pending', { report: { status: 'pending' } });
    expect(fresh(cache, 'memoryReports', 'pending')).toBe(false);
  });

  it('other SWR keys are never fresh here: SWR alone decides for them', () => {
    const cache = new DataCache();
    cache.set('organizations', { data: [] });
    expect(cache.isFresh('organizations')).toBe(false);
    expect(cache.get('organizations')).toEqual({ data: [] });
  });
});

describe('invalidation', () => {
  it('resets the timestamp so the next use asks the server', () => {
    const cache = new DataCache();
    store(cache, 'targets', 'p1', [{ name: 'app' }]);
    store(cache, 'targets', 'p2', [{ name: 'app' }]);
    cache.invalidate('targets', 'p1');
    expect(cache.entry('targets', 'p1')).toEqual({ data: [{ name: 'app' }], timestamp: 0 });
    expect(fresh(cache, 'targets', 'p1')).toBe(false);
    expect(fresh(cache, 'targets', 'p2')).toBe(true);
    cache.invalidate('targets');
    expect(fresh(cache, 'targets', 'p2')).toBe(false);
  });

  it('by prefix: every heads entry of one project', () => {
    const cache = new DataCache();
    for (const key of ['p1:a', 'p1:b', 'p2:a']) store(cache, 'heads', key, []);
    cache.invalidatePrefix('heads', 'p1:');
    expect(['p1:a', 'p1:b', 'p2:a'].map((key) => fresh(cache, 'heads', key))).toEqual([
      false,
      false,
      true,
    ]);
  });
});

describe('size caps and cleanup', () => {
  it('evict the oldest entries beyond the caps: reports 5, messages 20, comparisons 3', () => {
    const cache = new DataCache();
    const caps = { memoryReports: 5, commitMessages: 20, comparisons: 3 } as const;
    for (const [kind, cap] of Object.entries(caps) as Array<[keyof typeof caps, number]>) {
      for (let i = 0; i < cap + 2; i++) store(cache, kind, `k${i}`, i);
      expect(cache.keysOf(kind)).toEqual(Array.from({ length: cap }, (_, i) => `k${i + 2}`));
      expect(cache.get(cacheKey(kind, 'k0'))).toBeUndefined();
    }
  });

  it('persistent kinds have no cap', () => {
    const cache = new DataCache();
    for (let i = 0; i < 100; i++) store(cache, 'commits', `k${i}`, i);
    expect(cache.keysOf('commits')).toHaveLength(100);
  });

  it('a re-stored entry counts as newest; state changes without new data do not', () => {
    const cache = new DataCache();
    for (const key of ['a', 'b', 'c']) store(cache, 'comparisons', key, key);
    store(cache, 'comparisons', 'a', 'again');
    const b = cacheKey('comparisons', 'b');
    cache.set(b, { ...cache.get(b), isValidating: true });
    store(cache, 'comparisons', 'd', 'd');
    expect(cache.keysOf('comparisons')).toEqual(['c', 'a', 'd']);
  });

  it('cleanup keeps the newest comparison and the two newest reports', () => {
    const cache = new DataCache();
    for (const key of ['1', '2', '3']) store(cache, 'comparisons', key, key);
    for (const key of ['1', '2', '3', '4']) store(cache, 'memoryReports', key, key);
    for (const key of ['1', '2', '3']) store(cache, 'commitMessages', key, key);
    cleanupCaches(cache);
    expect(cache.keysOf('comparisons')).toEqual(['3']);
    expect(cache.keysOf('memoryReports')).toEqual(['3', '4']);
    expect(cache.keysOf('commitMessages')).toHaveLength(3);
    expect([...cache.keys()]).toHaveLength(6);
  });

  it('cleanup applies on project target pages except symbols and compare', () => {
    expect(cleanupApplies('/project/p/target/t')).toBe(true);
    expect(cleanupApplies('/project/p/target/t/commit/abc')).toBe(true);
    expect(cleanupApplies('/project/p/target/t/region-config')).toBe(true);
    expect(cleanupApplies('/project/p/target/t/symbols')).toBe(false);
    expect(cleanupApplies('/project/p/target/t/compare')).toBe(false);
    expect(cleanupApplies('/project/p/settings')).toBe(false);
    expect(cleanupApplies('/')).toBe(false);
  });
});

describe('persistence', () => {
  it('persists projects, targets, heads and commits but not reports, messages or comparisons', () => {
    const storage = new MemoryStorage();
    const cache = new DataCache({ storage });
    for (const kind of ['projects', 'targets', 'heads', 'commits'] as const) {
      store(cache, kind, 'k', 1);
    }
    for (const kind of ['memoryReports', 'commitMessages', 'comparisons'] as const) {
      store(cache, kind, 'k', 1);
    }
    cache.set('organizations', { data: [] });
    expect([...storage.items.keys()].sort()).toEqual(
      ['commits', 'heads', 'projects', 'targets'].map((kind) => STORAGE_PREFIX + kind),
    );
    const reloaded = new DataCache({ storage });
    expect(reloaded.get(cacheKey('targets', 'k'))).toEqual({ data: 1 });
    expect(reloaded.get(cacheKey('memoryReports', 'k'))).toBeUndefined();
    expect(reloaded.get('organizations')).toBeUndefined();
  });

  it('restored entries keep their age, order and invalidation; unreadable tables are dropped', () => {
    const storage = new MemoryStorage();
    const time = clock();
    const first = new DataCache({ storage, now: time.now });
    for (const key of ['b', 'a', 'c']) store(first, 'heads', key, [key]);
    first.invalidate('heads', 'c');
    time.state.now += 6 * MINUTE;
    store(first, 'heads', 'b', ['b2']);
    const reloaded = new DataCache({ storage, now: time.now });
    expect(reloaded.keysOf('heads')).toEqual(['a', 'c', 'b']);
    expect(fresh(reloaded, 'heads', 'a')).toBe(false);
    expect(reloaded.entry('heads', 'c')?.timestamp).toBe(0);
    expect(fresh(reloaded, 'heads', 'b')).toBe(true);
    expect(reloaded.entry('heads', 'b')?.data).toEqual(['b2']);

    storage.setItem(STORAGE_PREFIX + 'projects', '{not json');
    expect(new DataCache({ storage }).keysOf('projects')).toEqual([]);
    expect(storage.getItem(STORAGE_PREFIX + 'projects')).toBeNull();
    clearPersistedCaches(storage);
    expect(storage.items.size).toBe(0);
  });

  it('a removed entry leaves the persisted table', () => {
    const storage = new MemoryStorage();
    const cache = new DataCache({ storage });
    store(cache, 'targets', 'p1', []);
    store(cache, 'targets', 'p2', []);
    cache.delete(cacheKey('targets', 'p1'));
    expect(new DataCache({ storage }).keysOf('targets')).toEqual(['p2']);
  });
});

describe('background refresh', () => {
  it('re-fetches projects, targets and heads older than half their lifetime only', async () => {
    const time = clock();
    const cache = new DataCache({ now: time.now });
    const project = '123e4567-e89b-12d3-a456-426614174000';
    store(cache, 'projects', 'all', []);
    store(cache, 'targets', project, []);
    store(cache, 'heads', headsKey(project, 'stm32/app'), []);
    store(cache, 'commits', 'c', []);
    time.state.now += 2.5 * MINUTE + 1; // heads stale (half of 5 min), targets not (half of 10)
    const refetched: string[] = [];
    const record = async (kind: DataKind, key: string) => void refetched.push(`${kind} ${key}`);
    expect(await refreshStale(cache, record)).toBe(1);
    expect(refetched).toEqual([`heads ${project}:stm32/app`]);
    expect(parseHeadsKey(`${project}:stm32/app`)).toEqual({
      projectId: project,
      target: 'stm32/app',
    });
    time.state.now += 15 * MINUTE;
    refetched.length = 0;
    const failHeads = async (kind: DataKind, key: string) => {
      if (kind === 'heads') throw new Error('ignored');
      await record(kind, key);
    };
    expect(await refreshStale(cache, failHeads)).toBe(3);
    expect(refetched.sort()).toEqual(['projects all', `targets ${project}`]);
  });

  it('asks the call behind each key and writes the answer through SWR without revalidating', async () => {
    const project = '123e4567-e89b-12d3-a456-426614174000';
    const asked: string[] = [];
    const api = {
      getProjects: async () => (asked.push('projects'), [{ id: project }]),
      getTargets: async (id: string) => (asked.push(`targets ${id}`), [{ name: 'fw' }]),
      getHeads: async (id: string, target: string) => (asked.push(`heads ${id} ${target}`), []),
    } as unknown as CoreApi;
    const written: Array<[string, unknown, unknown]> = [];
    const mutate = (async (key: string, data: Promise<unknown>, options: unknown) => {
      written.push([key, await data, options]);
    }) as unknown as ScopedMutator;
    const refetch = backgroundRefetch(mutate, createFetchers(api));
    await refetch('projects', 'all');
    await refetch('targets', project);
    await refetch('heads', headsKey(project, 'stm32/app'));
    await expect(refetch('commits', 'c')).rejects.toThrow('not refreshed in the background');
    expect(asked).toEqual(['projects', `targets ${project}`, `heads ${project} stm32/app`]);
    expect(written).toEqual([
      [cacheKey('projects', 'all'), [{ id: project }], { revalidate: false }],
      [cacheKey('targets', project), [{ name: 'fw' }], { revalidate: false }],
      [cacheKey('heads', `${project}:stm32/app`), [], { revalidate: false }],
    ]);
  });

  it('is skipped on commit and symbols pages', () => {
    expect(backgroundRefreshApplies('/')).toBe(true);
    expect(backgroundRefreshApplies('/project/p/target/t')).toBe(true);
    expect(backgroundRefreshApplies('/project/p/target/t/commit/abc')).toBe(false);
    expect(backgroundRefreshApplies('/project/p/target/t/symbols')).toBe(false);
  });
});

describe('fetchers', () => {
  it('a report or commit message of a project without targets fails with the spec message', async () => {
    const api = { getTargets: async () => [] } as unknown as CoreApi;
    const fetchers = createFetchers(api);
    await expect(fetchers.memoryReport('p', undefined, 'abc')).rejects.toThrow(
      STORE_MESSAGES.noTargets,
    );
    await expect(fetchers.commitMessage('p', undefined, 'abc')).rejects.toThrow(
      'No targets found for this project',
    );
  });

  it('a commit message comes from the report commit field, using the first target', async () => {
    const asked: string[] = [];
    const api = {
      getTargets: async () => [{ name: 'fw', region_config: {} }],
      getMemoryReport: async (_p: string, target: string, sha: string) => {
        asked.push(`${target}@${sha}`);
        return { commit: { message: 'Shrink the heap' } };
      },
    } as unknown as CoreApi;
    const fetchers = createFetchers(api);
    expect(await fetchers.commitMessage('p', undefined, 'abc')).toBe('Shrink the heap');
    expect(await fetchers.commitMessage('p', 'fw', 'abd')).toBe('Shrink the heap');
    expect(asked).toEqual(['fw@abc', 'fw@abd']);
  });
});
