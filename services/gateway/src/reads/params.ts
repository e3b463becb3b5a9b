import { BadRequestException } from '@nestjs/common';
import type { ExportFormat, SeriesSelection } from '@memtrail/contracts';

/** Query strings as Express gives them: a repeated parameter arrives as an array. */
export type RawQuery = Record<string, unknown>;

const SHA = /^[0-9a-f]{4,64}$/;
const BOOLEANS: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BadRequestException(`${name} must be given once`);
  return value;
}

/** Commit SHAs as uploads store them: 4-64 hex digits, lowercase. */
export function sha(value: string, name = 'sha'): string {
  const lower = value.trim().toLowerCase();
  if (!SHA.test(lower)) {
    throw new BadRequestException(
      `${name} must be a hexadecimal commit SHA (4-64 digits), got "${value}"`,
    );
  }
  return lower;
}

export function bool(query: RawQuery, name: string, fallback: boolean): boolean {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  const value = BOOLEANS[raw.toLowerCase()];
  if (value === undefined)
    throw new BadRequestException(`${name} must be true or false, got "${raw}"`);
  return value;
}

export function int(
  query: RawQuery,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  const value = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new BadRequestException(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function oneOf<T extends string>(
  query: RawQuery,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new BadRequestException(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function text(query: RawQuery, name: string, max = 4096): string | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  if (raw === '') throw new BadRequestException(`${name} must not be empty`);
  if (raw.length > max) throw new BadRequestException(`${name} must be at most ${max} characters`);
  return raw;
}

export function required(query: RawQuery, name: string, max = 4096): string {
  const value = text(query, name, max);
  if (value === undefined) throw new BadRequestException(`${name} is required`);
  return value;
}

/** ISO 8601 date or date-time, normalised to an ISO string. */
export function time(query: RawQuery, name: string): string | undefined {
  const raw = text(query, name, 64);
  if (raw === undefined) return undefined;
  const parsed = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)
    ? new Date(raw)
    : null;
  if (!parsed || Number.isNaN(parsed.getTime())) {
    throw new BadRequestException(`${name} must be an ISO 8601 date or time, got "${raw}"`);
  }
  return parsed.toISOString();
}

export function format(query: RawQuery): ExportFormat {
  return oneOf(query, 'format', ['json', 'csv'] as const, 'json');
}

export const MAX_SERIES = 20_000;

/** `branch=` or `sha=` (exactly one), optional `from`/`to` window, `limit` newest commits. */
export function selection(query: RawQuery): SeriesSelection {
  const branch = text(query, 'branch', 255);
  const rawSha = text(query, 'sha', 64);
  if ((branch === undefined) === (rawSha === undefined)) {
    throw new BadRequestException(
      'Give exactly one of branch (reports of a branch) or sha (the chain of parents from a commit)',
    );
  }
  const from = time(query, 'from');
  const to = time(query, 'to');
  if (from && to && from > to) throw new BadRequestException('from must not be after to');
  return {
    ...(branch !== undefined ? { branch } : { sha: sha(rawSha!) }),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    limit: int(query, 'limit', 5000, 1, MAX_SERIES),
  };
}
