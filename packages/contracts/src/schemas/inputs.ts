import { z } from 'zod';
import { SHA_PATTERN } from '../upload-limits.js';

/**
 * Building blocks of request schemas. Each failing rule yields the sentence the API has always
 * answered with (400, naming the parameter), so clients and tests read the same words; each
 * carries what the OpenAPI document says about it.
 */

type Rule<T> = (value: T) => string | null;

/** Adds the first problem `rule` finds as the issue of a value that has the right type. */
export const check =
  <T>(rule: Rule<T>) =>
  (value: T, ctx: z.RefinementCtx) => {
    const problem = rule(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };

/**
 * A JSON body field that must be a string; anything else fails with `message` (the words the
 * field's own rule gives for an empty value), then `rule` checks the text.
 */
export const textField = (message: string, rule?: Rule<string>) => {
  const text = z.string({ error: message });
  return rule ? text.superRefine(check(rule)) : text;
};

/** A required text field of an auth body: blank is `{key}: This field is required`. */
export const requiredField = (key: string, requiredMessage: string) =>
  z
    .string({ error: `${key}: ${requiredMessage}` })
    .transform((value) => value.trim())
    .superRefine(check((value) => (value ? null : `${key}: ${requiredMessage}`)));

// ------------------------------------------------------------------------------------------
// Query-string and path parameters: Express gives a string, or an array when repeated.
// ------------------------------------------------------------------------------------------

const once = (name: string) => z.string({ error: `${name} must be given once` }).optional();

/** `true`/`false`/`1`/`0` (any case); absent or empty: `fallback`. */
export function boolParam(name: string, fallback: boolean) {
  const values: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };
  return once(name)
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return fallback;
      const value = values[raw.toLowerCase()];
      if (value !== undefined) return value;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false, got "${raw}"` });
      return z.NEVER;
    })
    .meta({ override: { type: 'boolean', default: fallback } });
}

/** A whole number from `min` to `max`; absent or empty: `fallback`. */
export function intParam(name: string, fallback: number, min: number, max: number) {
  return once(name)
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return fallback;
      const value = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
      if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be an integer from ${min} to ${max}, got "${raw}"`,
      });
      return z.NEVER;
    })
    .meta({ override: { type: 'integer', minimum: min, maximum: max, default: fallback } });
}

/** One of `allowed`; absent or empty: `fallback`. */
export function enumParam<const T extends readonly [string, ...string[]]>(
  name: string,
  allowed: T,
  fallback: T[number],
) {
  return once(name)
    .transform((raw, ctx): T[number] => {
      if (raw === undefined || raw === '') return fallback;
      if ((allowed as readonly string[]).includes(raw)) return raw;
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be one of ${allowed.join(', ')}, got "${raw}"`,
      });
      return z.NEVER;
    })
    .meta({ override: { type: 'string', enum: [...allowed], default: fallback } });
}

/** Optional text of at most `max` characters; given but empty is refused. */
export function textParam(name: string, max = 4096) {
  return once(name)
    .superRefine(
      check((raw) =>
        raw === undefined
          ? null
          : raw === ''
            ? `${name} must not be empty`
            : raw.length > max
              ? `${name} must be at most ${max} characters`
              : null,
      ),
    )
    .meta({ override: { type: 'string', minLength: 1, maxLength: max } });
}

/** Required text of at most `max` characters. */
export function requiredParam(name: string, max = 4096) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${name} is required` : `${name} must be given once`,
    })
    .superRefine(
      check((raw) =>
        raw === ''
          ? `${name} must not be empty`
          : raw.length > max
            ? `${name} must be at most ${max} characters`
            : null,
      ),
    )
    .meta({ override: { type: 'string', minLength: 1, maxLength: max } });
}

const shaProblem = (name: string) => (value: string) =>
  SHA_PATTERN.test(value.trim().toLowerCase())
    ? null
    : `${name} must be a hexadecimal commit SHA (4-64 digits), got "${value}"`;

const SHA_DOC = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{4,64}$',
  description: 'A commit SHA or its prefix: 4-64 hexadecimal digits',
} as const;

/** A commit SHA in the path, as uploads store it: 4-64 hex digits, lowercased. */
export const shaPath = (name: string) =>
  z
    .string()
    .superRefine(check(shaProblem(name)))
    .transform((value) => value.trim().toLowerCase())
    .meta({ override: SHA_DOC });

/** An optional commit SHA in the query string. */
export const shaParam = (name: string) =>
  textParam(name, 64)
    .superRefine(check((value) => (value === undefined ? null : shaProblem(name)(value))))
    .transform((value) => value?.trim().toLowerCase())
    .meta({ override: SHA_DOC });

/** A required commit SHA in the query string. */
export const requiredShaParam = (name: string) =>
  requiredParam(name, 64)
    .superRefine(check(shaProblem(name)))
    .transform((value) => value.trim().toLowerCase())
    .meta({ override: SHA_DOC });

const TIME = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date or date-time, normalised to an ISO string. */
export function timeParam(name: string) {
  return textParam(name, 64)
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const parsed = TIME.test(raw) ? new Date(raw) : null;
      if (parsed && !Number.isNaN(parsed.getTime())) return parsed.toISOString();
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be an ISO 8601 date or time, got "${raw}"`,
      });
      return z.NEVER;
    })
    .meta({ override: { type: 'string', format: 'date-time' } });
}

/** Any path segment (ids are checked by the access rules, which answer 404 for unknown ones). */
export const segment = (description: string) => z.string().describe(description);
