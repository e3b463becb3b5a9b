import { describe, expect, it } from '@jest/globals';
import {
  BACKGROUND_REFRESH_MS,
  CACHE_POLICY,
  HEADS_KEY_PREFIX_LENGTH,
  STORAGE_PREFIX,
  STORE_MESSAGES,
} from '../src/lib/store/cachePolicy.ts';
import { clearPersistedCaches, DataStore } from '../src/lib/store/dataStore.ts';
import {
  backgroundRefreshApplies,
  cleanupApplies,
  cleanupCaches,
  headsKey,
  parseHeadsKey,
  refreshStale,
} from '../src/lib/store/maintenance.ts';
import { createLoaders } from '../src/lib/store/loaders.ts';
import type { CoreApi } from '../src/lib/api/core.ts';

const MINUTE = 60_000;

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

function counter<T>(value: T) {
  const calls = { count: 0 };
  const fetch = async () => {
    calls.count++;
    return value;
  };
  return { calls, fetch };
}

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

  it('serve a fresh entry without fetching and refetch once the lifetime has passed', async () => {
    const time = clock();
    const store = new DataStore({ now: time.now });
    const { calls, fetch } = counter(['h1']);
    await store.load('heads', 'p:t', fetch);
    time.state.now += 5 * MINUTE - 1;
    await store.load('heads', 'p:t', fetch);
    expect(calls.count).toBe(1);
    time.state.now += 1;
    await store.load('heads', 'p:t', fetch);
    expect(calls.count).toBe(2);
  });

  it('never expire memory reports, messages and comparisons', async () => {
    const time = clock();
    const store = new DataStore({ now: time.now });
    const { calls, fetch } = counter({ symbols: [] });
    await store.load('memoryReports', 'r', fetch);
    time.state.now += 1000 * 24 * 60 * MINUTE;
    await store.load('memoryReports', 'r', fetch);
    expect(calls.count).toBe(1);
  });
});

describe('invalidation, forced refresh, shared requests', () => {
  it('invalidation resets the timestamp so the next load asks the server', async () => {
    const store = new DataStore();
    const { calls, fetch } = counter([{ name: 'app' }]);
    await store.load('targets', 'p1', fetch);
    store.invalidate('targets', 'p1');
    expect(store.get('targets', 'p1')?.timestamp).toBe(0);
    expect(store.isFresh('targets', 'p1')).toBe(false);
    await store.load('targets', 'p1', fetch);
    expect(calls.count).toBe(2);
  });

  it('a forced refresh bypasses a fresh entry', async () => {
    const store = new DataStore();
    const { calls, fetch } = counter([]);
    await store.load('projects', 'all', fetch);
    await store.load('projects', 'all', fetch, { force: true });
    expect(calls.count).toBe(2);
  });

  it('identical in-flight loads share one request', async () => {
    const store = new DataStore();
    let release: (value: string[]) => void = () => {};
    let calls = 0;
    const fetch = () => {
      calls++;
      return new Promise<string[]>((resolve) => (release = resolve));
    };
    const first = store.load('commits', 'k', fetch);
    const second = store.load('commits', 'k', fetch, { force: true });
    expect(store.kindStatus('commits').loading).toBe(true);
    release(['c']);
    expect(await first).toEqual(['c']);
    expect(await second).toEqual(['c']);
    expect(calls).toBe(1);
    expect(store.kindStatus('commits').loading).toBe(false);
  });

  it('keeps the error text per kind, rethrows, and clears it when loading starts again', async () => {
    const store = new DataStore();
    await expect(
      store.load('heads', 'p:t', () => Promise.reject(new Error('Core service error: 502 Bad'))),
    ).rejects.toThrow('Core service error: 502 Bad');
    expect(store.kindStatus('heads')).toEqual({
      loading: false,
      error: 'Core service error: 502 Bad',
    });
    expect(store.kindStatus('targets').error).toBeNull();
    const pending = store.load('heads', 'p:t', async () => []);
    expect(store.kindStatus('heads')).toEqual({ loading: true, error: null });
    await pending;
    expect(store.get('heads', 'p:t')?.data).toEqual([]);
  });
});

describe('size caps and cleanup', () => {
  it('evict the oldest entries beyond the caps: reports 5, messages 20, comparisons 3', () => {
    const store = new DataStore();
    const caps = { memoryReports: 5, commitMessages: 20, comparisons: 3 } as const;
    for (const [kind, cap] of Object.entries(caps) as Array<[keyof typeof caps, number]>) {
      for (let i = 0; i < cap + 2; i++) store.set(kind, `k${i}`, i);
      expect(store.keys(kind)).toEqual(Array.from({ length: cap }, (_, i) => `k${i + 2}`));
    }
  });

  it('a re-stored entry counts as newest', () => {
    const store = new DataStore();
    for (const key of ['a', 'b', 'c']) store.set('comparisons', key, key);
    store.set('comparisons', 'a', 'again');
    store.set('comparisons', 'd', 'd');
    expect(store.keys('comparisons')).toEqual(['c', 'a', 'd']);
  });

  it('cleanup keeps the newest comparison and the two newest reports', () => {
    const store = new DataStore();
    for (const key of ['1', '2', '3']) store.set('comparisons', key, key);
    for (const key of ['1', '2', '3', '4']) store.set('memoryReports', key, key);
    for (const key of ['1', '2', '3']) store.set('commitMessages', key, key);
    cleanupCaches(store);
    expect(store.keys('comparisons')).toEqual(['3']);
    expect(store.keys('memoryReports')).toEqual(['3', '4']);
    expect(store.keys('commitMessages')).toHaveLength(3);
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
    const store = new DataStore({ storage });
    for (const kind of ['projects', 'targets', 'heads', 'commits'] as const)
      store.set(kind, 'k', 1);
    for (const kind of ['memoryReports', 'commitMessages', 'comparisons'] as const) {
      store.set(kind, 'k', 1);
    }
    expect([...storage.items.keys()].sort()).toEqual(
      ['commits', 'heads', 'projects', 'targets'].map((kind) => STORAGE_PREFIX + kind),
    );
    const reloaded = new DataStore({ storage });
    expect(reloaded.get('targets', 'k')?.data).toBe(1);
    expect(reloaded.get('memoryReports', 'k')).toBeUndefined();
  });

  it('restored entries keep their age, and unreadable tables are dropped', async () => {
    const storage = new MemoryStorage();
    const time = clock();
    new DataStore({ storage, now: time.now }).set('heads', 'k', ['old']);
    time.state.now += 6 * MINUTE;
    const reloaded = new DataStore({ storage, now: time.now });
    expect(reloaded.isFresh('heads', 'k')).toBe(false);
    storage.setItem(STORAGE_PREFIX + 'projects', '{not json');
    expect(new DataStore({ storage }).keys('projects')).toEqual([]);
    expect(storage.getItem(STORAGE_PREFIX + 'projects')).toBeNull();
    clearPersistedCaches(storage);
    expect(storage.items.size).toBe(0);
  });
});

describe('background refresh', () => {
  it('re-fetches projects, targets and heads older than half their lifetime only', async () => {
    const time = clock();
    const store = new DataStore({ now: time.now });
    const project = '123e4567-e89b-12d3-a456-426614174000';
    store.set('projects', 'all', []);
    store.set('targets', project, []);
    store.set('heads', headsKey(project, 'stm32/app'), []);
    store.set('commits', 'c', []);
    time.state.now += 2.5 * MINUTE + 1; // heads stale (half of 5 min), targets not (half of 10)
    const refetched: string[] = [];
    const record = (kind: string) => async (key: string) => void refetched.push(`${kind} ${key}`);
    const count = await refreshStale(store, {
      projects: record('projects'),
      targets: record('targets'),
      heads: record('heads'),
    });
    expect(count).toBe(1);
    expect(refetched).toEqual([`heads ${project}:stm32/app`]);
    expect(parseHeadsKey(`${project}:stm32/app`)).toEqual({
      projectId: project,
      target: 'stm32/app',
    });
    time.state.now += 15 * MINUTE;
    refetched.length = 0;
    await refreshStale(store, {
      projects: record('projects'),
      targets: record('targets'),
      heads: async () => {
        throw new Error('ignored');
      },
    });
    expect(refetched.sort()).toEqual(['projects all', `targets ${project}`]);
  });

  it('is skipped on commit and symbols pages', () => {
    expect(backgroundRefreshApplies('/')).toBe(true);
    expect(backgroundRefreshApplies('/project/p/target/t')).toBe(true);
    expect(backgroundRefreshApplies('/project/p/target/t/commit/abc')).toBe(false);
    expect(backgroundRefreshApplies('/project/p/target/t/symbols')).toBe(false);
  });
});

describe('loaders', () => {
  it('a report or commit message of a project without targets fails with the spec message', async () => {
    const store = new DataStore();
    const api = { getTargets: async () => [] } as unknown as CoreApi;
    const load = createLoaders(store, api);
    await expect(load.memoryReport('p', undefined, 'abc')).rejects.toThrow(
      STORE_MESSAGES.noTargets,
    );
    await expect(load.commitMessage('p', undefined, 'abc')).rejects.toThrow(
      'No targets found for this project',
    );
  });

  it('a commit message comes from the report commit field, using the first target', async () => {
    const store = new DataStore();
    const asked: string[] = [];
    const api = {
      getTargets: async () => [{ name: 'fw', region_config: {} }],
      getMemoryReport: async (_p: string, target: string, sha: string) => {
        asked.push(`${target}@${sha}`);
        return { commit: { message: 'Shrink the heap' } };
      },
    } as unknown as CoreApi;
    const load = createLoaders(store, api);
    expect(await load.commitMessage('p', undefined, 'abc')).toBe('Shrink the heap');
    expect(await load.commitMessage('p', 'fw', 'abc')).toBe('Shrink the heap');
    expect(asked).toEqual(['fw@abc']);
  });
});
