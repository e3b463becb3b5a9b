import type { ReportSymbolRow, SymbolPageData, SymbolSortKey } from '@memtrail/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useProjectContext } from './store/projectContext.ts';

/** Rows per request: a few screens of the symbols table. */
export const SYMBOL_PAGE = 200;

export interface SymbolQuery {
  sort: SymbolSortKey;
  descending: boolean;
  /** Search text ('' for none). */
  q: string;
  /** Exact repository-relative source path, region and section. */
  file?: string;
  region?: string;
  section?: string;
  /** Rows per page (SYMBOL_PAGE by default). */
  pageSize?: number;
}

interface Loaded {
  key: string;
  pages: Record<number, ReportSymbolRow[]>;
  meta?: SymbolPageData;
  error?: string;
}

function queryString(query: SymbolQuery, page: number, size: number): string {
  const params = new URLSearchParams({
    offset: String(page * size),
    limit: String(size),
    sort: query.sort,
    order: query.descending ? 'desc' : 'asc',
  });
  for (const name of ['q', 'file', 'region', 'section'] as const) {
    const value = query[name];
    if (value) params.set(name, value);
  }
  return params.toString();
}

/**
 * A report's symbols a page at a time, sorted, filtered and searched by the query service
 * (`commit/{sha}/symbols`): the first page comes at once, the others as the table scrolls to
 * them. `version` (the report's ingested version) starts over when the report changes.
 */
export function useSymbolPages(
  projectId: string,
  target: string,
  sha: string | undefined,
  version: number | null | undefined,
  query: SymbolQuery,
) {
  const { api } = useProjectContext();
  const { sort, descending, q, file, region, section, pageSize = SYMBOL_PAGE } = query;
  const key = JSON.stringify([
    projectId,
    target,
    sha,
    version,
    sort,
    descending,
    q,
    file,
    region,
    section,
    pageSize,
  ]);
  const [loaded, setLoaded] = useState<Loaded>({ key, pages: {} });
  // Pages asked for, for the current key only: coming back to a query asks again.
  const requested = useRef({ key, pages: new Set<number>() });
  const current: Loaded = loaded.key === key ? loaded : { key, pages: {} };

  const load = useCallback(
    (page: number) => {
      if (requested.current.key !== key) requested.current = { key, pages: new Set() };
      const asked = requested.current.pages;
      if (!sha || asked.has(page)) return;
      asked.add(page);
      const path = `commit/${encodeURIComponent(sha)}/symbols?${queryString(
        { sort, descending, q, file, region, section },
        page,
        pageSize,
      )}`;
      const update = (next: (base: Loaded) => Loaded) =>
        setLoaded((state) => next(state.key === key ? state : { key, pages: {} }));
      api.getTargetResource<SymbolPageData>(projectId, target, path).then(
        (data) =>
          update((base) => ({
            ...base,
            meta: data,
            pages: { ...base.pages, [page]: data.rows ?? [] },
          })),
        (error: unknown) => {
          asked.delete(page);
          update((base) => ({
            ...base,
            error: error instanceof Error ? error.message : String(error),
          }));
        },
      );
    },
    [api, projectId, target, sha, key, sort, descending, q, file, region, section, pageSize],
  );

  useEffect(() => load(0), [load]);

  const onRange = useCallback(
    (first: number, last: number) => {
      for (let page = Math.floor(first / pageSize); page * pageSize < last; page++) load(page);
    },
    [load, pageSize],
  );

  return {
    meta: current.meta,
    error: current.error,
    row: (index: number): ReportSymbolRow | undefined =>
      current.pages[Math.floor(index / pageSize)]?.[index % pageSize],
    onRange,
  };
}
