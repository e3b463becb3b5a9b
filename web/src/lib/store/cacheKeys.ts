import type { CommitQuery } from '../api/core.ts';
import { CACHE_POLICY, HEADS_KEY_PREFIX_LENGTH, type DataKind } from './cachePolicy.ts';

// Cache keys. SWR keys of the data kinds are `<kind>|<key>`; within a kind the key names what
// was asked for, and is the key of the kind's table in localStorage.

const SEPARATOR = '|';

export const cacheKey = (kind: DataKind, key: string) => `${kind}${SEPARATOR}${key}`;

/** The kind and key of a data kind's SWR key; null for any other SWR key. */
export function splitCacheKey(swrKey: string): { kind: DataKind; key: string } | null {
  const at = swrKey.indexOf(SEPARATOR);
  const kind = swrKey.slice(0, at);
  return at > 0 && Object.hasOwn(CACHE_POLICY, kind)
    ? { kind: kind as DataKind, key: swrKey.slice(at + 1) }
    : null;
}

export const headsKey = (projectId: string, target: string) => `${projectId}:${target}`;

/** The project and target of a heads key (project ids are 36-character UUIDs). */
export function parseHeadsKey(key: string): { projectId: string; target: string } {
  return {
    projectId: key.slice(0, HEADS_KEY_PREFIX_LENGTH),
    target: key.slice(HEADS_KEY_PREFIX_LENGTH + 1),
  };
}

export const commitsKey = (
  projectId: string,
  target: string,
  sha: string,
  { count = 50, offset = 0, onlyChanged = true }: CommitQuery = {},
) => `${projectId}:${target}:${sha}:${count}:${offset}:${onlyChanged ? 'changed' : 'all'}`;

export const reportKey = (projectId: string, target: string, sha: string) =>
  `${projectId}:${target}:${sha}`;

export const comparisonKey = (
  projectId: string,
  target: string,
  base: string,
  head: string,
  allSymbols: boolean,
  zeroSize = false,
) =>
  `${projectId}:${target}:${base}:${head}:${allSymbols ? 'all' : 'changed'}${zeroSize ? ':zero' : ''}`;
