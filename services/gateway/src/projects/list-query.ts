import type { QueryOf } from '../http/input.js';

/** `?search=&favourites=true&offset=&limit=` of the projects and targets lists. */
export interface ListQuery {
  search: string | null;
  favouritesOnly: boolean;
  /** Null: the whole list (the spec's call, no paging). */
  page: { offset: number; limit: number } | null;
}

/** The list query as the services read it; a page once offset or limit is given. */
export function listQuery({
  search,
  favourites,
  offset,
  limit,
}: QueryOf<'GET /api/projects'>): ListQuery {
  return {
    search,
    favouritesOnly: favourites,
    page:
      limit !== undefined || offset !== undefined
        ? { offset: offset ?? 0, limit: limit ?? 50 }
        : null,
  };
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
