/** Limits of the reads of a target (operations.ts has their parameters and answers). */

export const SYMBOL_SORT_KEYS = [
  'name',
  'size',
  'address',
  'type',
  'section',
  'region',
  'source_file',
] as const;

/** Rows of one symbol page at most. */
export const SYMBOL_PAGE_MAX = 1000;

/** Commits of one series at most. */
export const MAX_SERIES = 20_000;
