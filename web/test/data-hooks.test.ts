/**
 * @jest-environment jsdom
 */
import './jsdom-encoding.ts';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, render, renderHook } from '@testing-library/react';
import { createElement, Fragment, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import type { CoreApi, NewProject } from '../src/lib/api/core.ts';
import {
  type StoredData,
  useComparison,
  useHeads,
  useProjectActions,
  useProjects,
  useTargets,
} from '../src/lib/data.ts';
import { CacheMaintenance } from '../src/lib/store/CacheMaintenance.ts';
import { cacheConfig } from '../src/lib/store/cacheConfig.ts';
import { cacheKey, headsKey } from '../src/lib/store/cacheKeys.ts';
import { BACKGROUND_REFRESH_MS } from '../src/lib/store/cachePolicy.ts';
import { DataCache } from '../src/lib/store/dataCache.ts';
import { createFetchers } from '../src/lib/store/fetchers.ts';
import { ProjectContext, type ProjectContextValue } from '../src/lib/store/projectContext.ts';
import { MemoryStorage } from './server.ts';

// The cache rules of spec §4 and §9 through the data hooks, SWR and its cache provider, as the
// app renders them. Timers are fake: settle() runs SWR's scheduled work to the end, so no test
// waits on the clock.

const MINUTE = 60_000;
const PROJECT = '123e4567-e89b-12d3-a456-426614174000';

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  cleanup();
  jest.useRealTimers();
});

/**
 * Lets 10 s of fake time pass, with the promises the timers start: SWR's deferred revalidation
 * and its 2 s deduplication window end, the 120 s background refresh does not come.
 */
const settle = () => act(() => jest.advanceTimersByTimeAsync(10_000));

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** The API's read calls, each answered by `answers` and counted. */
function countingApi(answers: Partial<Record<keyof CoreApi, (...args: string[]) => unknown>>) {
  const calls: Record<string, number> = {};
  const api = Object.fromEntries(
    Object.entries(answers).map(([name, answer]) => [
      name,
      async (...args: string[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return answer!(...args);
      },
    ]),
  ) as unknown as CoreApi;
  return { api, calls };
}

/**
 * The project pages' providers around a hook: SWR with the data cache, the context and, with
 * `maintenance`, the cache cleanup and background refresh.
 */
function providers(api: CoreApi, cache: DataCache, { maintenance = false } = {}) {
  const created: Array<NewProject | null> = [];
  const value: ProjectContextValue = {
    cache,
    api,
    fetchers: createFetchers(api),
    justCreated: null,
    setJustCreated: (project) => void created.push(project),
  };
  const config = cacheConfig(cache);
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(
      MemoryRouter,
      null,
      createElement(
        SWRConfig,
        { value: config },
        createElement(
          ProjectContext.Provider,
          { value },
          maintenance ? createElement(CacheMaintenance, { cache, fetchers: value.fetchers }) : null,
          children,
        ),
      ),
    );
  return { wrapper, created };
}

describe('lifetimes through the hooks', () => {
  it('a fresh entry is shown without asking the server; once its lifetime has passed, mounting asks again', async () => {
    const time = clock();
    const heads = [{ commit_sha: 'a1' }];
    const { api, calls } = countingApi({ getHeads: () => heads });
    const { wrapper } = providers(api, new DataCache({ now: time.now }));
    const mount = () => renderHook(() => useHeads(PROJECT, 'fw'), { wrapper });

    let view = mount();
    expect(view.result.current).toMatchObject({ data: undefined, isLoading: true });
    await settle();
    expect(view.result.current).toMatchObject({ data: heads, isLoading: false, error: null });
    view.unmount();

    time.state.now += 5 * MINUTE - 1;
    view = mount();
    expect(view.result.current.data).toEqual(heads);
    await settle();
    expect(calls.getHeads).toBe(1);
    view.unmount();

    time.state.now += 1;
    view = mount();
    expect(view.result.current.data).toEqual(heads);
    await settle();
    expect(calls.getHeads).toBe(2);
    view.unmount();

    // The answer was equal to the cached one, and still made the entry fresh again.
    view = mount();
    await settle();
    expect(calls.getHeads).toBe(2);
  });

  it('comparisons never expire', async () => {
    const time = clock();
    const { api, calls } = countingApi({ getDiff: () => ({ changes: [] }) });
    const { wrapper } = providers(api, new DataCache({ now: time.now }));
    const mount = () =>
      renderHook(() => useComparison(PROJECT, 'fw', 'a', 'b', false), { wrapper });
    mount().unmount();
    await settle();
    time.state.now += 1000 * 24 * 60 * MINUTE;
    const view = mount();
    await settle();
    expect(view.result.current.data).toEqual({ changes: [] });
    expect(calls.getDiff).toBe(1);
  });

  it('a forced refresh bypasses a fresh entry', async () => {
    const { api, calls } = countingApi({ getProjects: () => [{ id: PROJECT }] });
    const { wrapper } = providers(api, new DataCache());
    const view = renderHook(() => useProjects(), { wrapper });
    await settle();
    await act(() => view.result.current.refresh());
    expect(calls.getProjects).toBe(2);
  });

  it('identical in-flight requests are shared by every hook that asks', async () => {
    const answer = deferred<unknown[]>();
    const { api, calls } = countingApi({ getHeads: () => answer.promise });
    const { wrapper } = providers(api, new DataCache());
    const both = renderHook(() => [useHeads(PROJECT, 'fw'), useHeads(PROJECT, 'fw')], {
      wrapper,
    });
    const later = renderHook(() => useHeads(PROJECT, 'fw'), { wrapper });
    await act(async () => {
      await jest.advanceTimersByTimeAsync(10);
    });
    answer.resolve([{ commit_sha: 'a1' }]);
    await settle();
    expect(calls.getHeads).toBe(1);
    expect(both.result.current.map((hook) => hook.data)).toEqual([
      [{ commit_sha: 'a1' }],
      [{ commit_sha: 'a1' }],
    ]);
    expect(later.result.current.data).toEqual([{ commit_sha: 'a1' }]);
  });
});

describe('loading flag and error text', () => {
  it('keeps the error per kind with its fallback; loading again clears it', async () => {
    let heads: () => unknown = () => {
      throw new Error('Core service error: 502 Bad');
    };
    const { api } = countingApi({
      getHeads: () => heads(),
      getTargets: () => [{ name: 'fw' }],
    });
    const { wrapper } = providers(api, new DataCache());
    const mount = () =>
      renderHook(() => ({ heads: useHeads(PROJECT, 'fw'), targets: useTargets(PROJECT) }), {
        wrapper,
      });
    let view = mount();
    await settle();
    expect(view.result.current.heads).toMatchObject({
      data: [],
      error: 'Core service error: 502 Bad',
      isLoading: false,
    });
    expect(view.result.current.targets.error).toBeNull();
    view.unmount();

    const answer = deferred<unknown[]>();
    heads = () => answer.promise;
    view = mount();
    await act(() => jest.advanceTimersByTimeAsync(10));
    expect(view.result.current.heads).toMatchObject({
      data: undefined,
      error: null,
      isLoading: true,
    });
    answer.resolve([{ commit_sha: 'a1' }]);
    await settle();
    expect(view.result.current.heads).toMatchObject({
      data: [{ commit_sha: 'a1' }],
      error: null,
      isLoading: false,
    });
  });

  it("an error screen's Retry fetches while the failed hook is unmounted; a failed one rethrows", async () => {
    let heads: () => unknown = () => {
      throw new Error('Core service error: 502 Bad');
    };
    const { api, calls } = countingApi({ getHeads: () => heads() });
    const { wrapper } = providers(api, new DataCache());
    const shown: { current?: StoredData<unknown[]> } = {};
    const Heads = () => {
      shown.current = useHeads(PROJECT, 'fw');
      return null;
    };
    const view = render(createElement(Heads), { wrapper });
    await settle();
    const retry = shown.current!.refresh;
    // The error screen replaces the page: no hook shows the heads any more.
    view.rerender(createElement(Fragment));

    let failure: unknown;
    await act(async () => {
      failure = await retry().catch((error: unknown) => error);
    });
    expect(failure).toEqual(new Error('Core service error: 502 Bad'));
    heads = () => [{ commit_sha: 'a1' }];
    await act(() => retry());
    expect(calls.getHeads).toBe(3);
    view.rerender(createElement(Heads));
    expect(shown.current).toMatchObject({ data: [{ commit_sha: 'a1' }], error: null });
    await settle();
    expect(calls.getHeads).toBe(3);
  });
});

describe('project list changes', () => {
  it('creating adds the project and holds its key; deleting removes it and invalidates its targets and heads', async () => {
    const cache = new DataCache();
    const { api, calls } = countingApi({
      getProjects: () => [{ id: PROJECT, name: 'fw' }],
      getTargets: () => [{ name: 'app' }],
      getHeads: () => [],
      createProject: (name: string) => ({ id: 'new', name, api_key: 'mt_key' }),
      deleteProject: () => undefined,
    });
    const { wrapper, created } = providers(api, cache);
    const mountTargets = () =>
      renderHook(() => [useTargets(PROJECT), useHeads(PROJECT, 'app')], { wrapper });
    mountTargets().unmount();
    const view = renderHook(() => ({ list: useProjects(), actions: useProjectActions() }), {
      wrapper,
    });
    await settle();

    await act(() => view.result.current.actions.createProject('next', ''));
    expect(view.result.current.list.data?.map((project) => project.id)).toEqual([PROJECT, 'new']);
    expect(created).toEqual([{ id: 'new', name: 'next', api_key: 'mt_key' }]);

    await act(() => view.result.current.actions.deleteProject(PROJECT));
    expect(view.result.current.list.data?.map((project) => project.id)).toEqual(['new']);
    expect(calls.getProjects).toBe(1);
    expect(cache.entry('targets', PROJECT)?.timestamp).toBe(0);
    expect(cache.entry('heads', headsKey(PROJECT, 'app'))?.timestamp).toBe(0);
    mountTargets();
    await settle();
    expect(calls.getTargets).toBe(2);
    expect(calls.getHeads).toBe(2);
  });
});

describe('caps and persistence through the hooks', () => {
  it('a fourth comparison evicts the oldest, which is fetched again when shown', async () => {
    const cache = new DataCache();
    const { api, calls } = countingApi({ getDiff: (...args) => ({ base: args[2] }) });
    const { wrapper } = providers(api, cache);
    const view = renderHook(({ base }) => useComparison(PROJECT, 'fw', base, 'head', false), {
      wrapper,
      initialProps: { base: 'b0' },
    });
    for (const base of ['b0', 'b1', 'b2', 'b3']) {
      view.rerender({ base });
      await settle();
    }
    expect(cache.keysOf('comparisons')).toHaveLength(3);
    expect(cache.get(cacheKey('comparisons', `${PROJECT}:fw:b0:head:changed`))).toBeUndefined();
    view.rerender({ base: 'b0' });
    await settle();
    expect(view.result.current.data).toEqual({ base: 'b0' });
    expect(calls.getDiff).toBe(5);
  });

  it('what the hooks fetched is shown after a reload without asking again', async () => {
    const storage = new MemoryStorage();
    const { api, calls } = countingApi({ getProjects: () => [{ id: PROJECT }] });
    const first = providers(api, new DataCache({ storage }));
    renderHook(() => useProjects(), { wrapper: first.wrapper }).unmount();
    await settle();
    const reloaded = providers(api, new DataCache({ storage }));
    const view = renderHook(() => useProjects(), { wrapper: reloaded.wrapper });
    expect(view.result.current).toMatchObject({ data: [{ id: PROJECT }], isLoading: false });
    await settle();
    expect(calls.getProjects).toBe(1);
  });
});

describe('cache maintenance', () => {
  it('every 120 s re-fetches heads older than half their lifetime, and shown hooks update', async () => {
    const time = clock();
    const cache = new DataCache({ now: time.now });
    let answer = [{ commit_sha: 'a1' }];
    const { api, calls } = countingApi({ getHeads: () => answer, getProjects: () => [] });
    const { wrapper } = providers(api, cache, { maintenance: true });
    const view = renderHook(() => [useHeads(PROJECT, 'fw'), useProjects()] as const, {
      wrapper,
    });
    await settle();
    answer = [{ commit_sha: 'b2' }];
    time.state.now += 2.5 * MINUTE + 1; // heads are stale, projects are not
    await act(() => jest.advanceTimersByTimeAsync(BACKGROUND_REFRESH_MS));
    expect(calls.getHeads).toBe(2);
    expect(calls.getProjects).toBe(1);
    expect(view.result.current[0].data).toEqual([{ commit_sha: 'b2' }]);
    expect(cache.isFresh(cacheKey('heads', headsKey(PROJECT, 'fw')))).toBe(true);
  });

  it('back/forward onto a target page trims comparisons to 1 and reports to 2', async () => {
    const cache = new DataCache();
    for (const key of ['1', '2', '3']) cache.set(cacheKey('comparisons', key), { data: key });
    const { api } = countingApi({});
    const { wrapper } = providers(api, cache, { maintenance: true });
    renderHook(() => null, { wrapper });
    expect(cache.keysOf('comparisons')).toHaveLength(3);
    window.history.pushState(null, '', `/project/${PROJECT}/target/fw`);
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(cache.keysOf('comparisons')).toEqual(['3']);
  });
});
