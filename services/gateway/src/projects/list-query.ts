import { BadRequestException } from '@nestjs/common';
import { LIST_LIMITS, validateSearchQuery } from '@memtrail/contracts';

/** `?search=&favourites=true&offset=&limit=` of the projects and targets lists. */
export interface ListQuery {
  search: string | null;
  favouritesOnly: boolean;
  /** Null: the whole list (the spec's call, no paging). */
  page: { offset: number; limit: number } | null;
}

type Raw = Record<string, unknown>;

function integer(query: Raw, name: string, min: number, max: number): number | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(value) || value < min || value > max) {
    throw new BadRequestException(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function parseListQuery(query: Raw): ListQuery {
  const raw = query.search;
  let search: string | null = null;
  if (raw !== undefined && raw !== '') {
    if (typeof raw !== 'string') throw new BadRequestException('search must be text');
    const problem = validateSearchQuery(raw);
    if (problem) throw new BadRequestException(problem);
    search = raw.trim() || null;
  }
  const favourites = query.favourites;
  if (favourites !== undefined && favourites !== 'true' && favourites !== 'false') {
    throw new BadRequestException('favourites must be true or false');
  }
  const limit = integer(query, 'limit', 1, LIST_LIMITS.pageMax);
  const offset = integer(query, 'offset', 0, 1_000_000);
  return {
    search,
    favouritesOnly: favourites === 'true',
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
