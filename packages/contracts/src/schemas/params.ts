import { z } from 'zod';
import { LIST_LIMITS } from '../projects.js';
import { SYMBOL_PAGE_MAX, SYMBOL_SORT_KEYS, MAX_SERIES } from '../query.js';
import { validateSearchQuery } from '../validation.js';
import {
  boolParam,
  check,
  enumParam,
  intParam,
  requiredParam,
  requiredShaParam,
  segment,
  shaParam,
  shaPath,
  textParam,
  timeParam,
} from './inputs.js';
import { SHA_PATTERN } from '../upload-limits.js';

/** Path and query parameters of the HTTP operations (operations.ts), with their 400 messages. */

export const ProjectPath = z.object({ project: segment('Project id') });
export const ProjectIdPath = z.object({ id: segment('Project id') });
export const TargetPath = ProjectPath.extend({
  target: segment('Target name (URL-encoded)'),
});
export const CommitPath = TargetPath.extend({ sha: shaPath('sha') });
export const DiffPath = TargetPath.extend({ shaA: shaPath('shaA'), shaB: shaPath('shaB') });
export const OrgPath = z.object({ org: segment('Organization id') });

// ------------------------------------------------------------------------------------------
// reads of a target
// ------------------------------------------------------------------------------------------

export const CommitsQuery = z.object({
  count: intParam('count', 50, 1, 500),
  offset: intParam('offset', 0, 0, 1_000_000),
  only_changed: boolParam('only_changed', false),
});

export const ReportQuery = z.object({ include_symbols: boolParam('include_symbols', false) });

export const TreeQuery = z.object({
  group_by: enumParam('group_by', ['source', 'object'], 'source'),
  include_symbols: boolParam('include_symbols', true),
});

export const SymbolsQuery = z.object({
  offset: intParam('offset', 0, 0, 10_000_000),
  limit: intParam('limit', 200, 1, SYMBOL_PAGE_MAX),
  sort: enumParam('sort', SYMBOL_SORT_KEYS, 'size'),
  order: enumParam('order', ['asc', 'desc'], 'desc'),
  q: textParam('q', 200).describe(
    'Case-insensitive text in the name, demangled name or source path',
  ),
  file: textParam('file').describe('Exact (repository-relative) source path'),
  region: textParam('region'),
  section: textParam('section'),
});

const format = enumParam('format', ['json', 'csv'], 'json');
export const ExportQuery = z.object({ format });

export const DiffQuery = z.object({
  all_symbols: boolParam('all_symbols', false),
  zero_size: boolParam('zero_size', false).describe(
    'Also list changes whose sizes are 0 on both sides (LTO markers, labels)',
  ),
});
export const DiffExportQuery = z.object({ all_symbols: boolParam('all_symbols', false), format });

const selectionShape = {
  branch: textParam('branch', 255).describe('The reports uploaded on this branch, by commit time'),
  sha: shaParam('sha').describe('The chain of parents from this commit'),
  from: timeParam('from'),
  to: timeParam('to'),
  limit: intParam('limit', 5000, 1, MAX_SERIES).describe('The newest commits kept'),
};

/** Exactly one of branch and sha; from must not be after to. */
const selectionRules = check(
  (q: { branch?: string | undefined; sha?: string | undefined; from?: string; to?: string }) =>
    (q.branch === undefined) === (q.sha === undefined)
      ? 'Give exactly one of branch (reports of a branch) or sha (the chain of parents from a commit)'
      : q.from && q.to && q.from > q.to
        ? 'from must not be after to'
        : null,
);

export const SeriesQuery = z.object(selectionShape).superRefine(selectionRules);
export const SectionSeriesQuery = z
  .object({
    ...selectionShape,
    names: textParam('names')
      .transform((names) =>
        names
          ?.split(',')
          .map((n) => n.trim())
          .filter(Boolean),
      )
      .describe('Comma-separated `region/section` keys or bare section names to keep'),
  })
  .superRefine(selectionRules);
export const SymbolHistoryQuery = z
  .object({ name: requiredParam('name').describe('Symbol name'), ...selectionShape })
  .superRefine(selectionRules);
export const FileHistoryQuery = z
  .object({ path: requiredParam('path').describe('Source path'), ...selectionShape })
  .superRefine(selectionRules);

export const GrowersQuery = z
  .object({
    base: shaParam('base'),
    head: shaParam('head'),
    branch: textParam('branch', 255),
    from: timeParam('from'),
    to: timeParam('to'),
    by: enumParam('by', ['symbol', 'file'], 'symbol'),
    limit: intParam('limit', 20, 1, 1000),
  })
  .describe('Either two commits (base and head), or a branch with an optional from/to window')
  .superRefine(
    check((q) =>
      (q.branch !== undefined && q.base === undefined && q.head === undefined) ||
      (q.branch === undefined && q.base !== undefined && q.head !== undefined)
        ? null
        : 'Give base and head commits, or a branch with an optional from/to window',
    ),
  );

export const BudgetStatusQuery = z.object({ sha: requiredShaParam('sha') });

export const BadgePath = z.object({
  project: segment('Project id'),
  file: segment('{target}.svg for the image, {target}.json for shields.io'),
});
export const BadgeQuery = z.object({
  region: textParam('region', 64).describe('The region shown (default: the first one)'),
  branch: textParam('branch', 255).describe('The head of this branch (default: the newest head)'),
});

// ------------------------------------------------------------------------------------------
// lists of projects and targets
// ------------------------------------------------------------------------------------------

const listInt = (name: string, min: number, max: number) =>
  z
    .string({ error: `${name} must be an integer from ${min} to ${max}` })
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      const value = Number(raw);
      if (Number.isInteger(value) && value >= min && value <= max) return value;
      ctx.addIssue({ code: 'custom', message: `${name} must be an integer from ${min} to ${max}` });
      return z.NEVER;
    })
    .meta({ override: { type: 'integer', minimum: min, maximum: max } });

/** `?search=&favourites=true&offset=&limit=`; without offset and limit the whole list. */
export const ListQuery = z.object({
  search: z
    .string({ error: 'search must be text' })
    .optional()
    .superRefine(check((raw) => (raw ? validateSearchQuery(raw) : null)))
    .transform((raw) => raw?.trim() || null)
    .describe('Names containing this text'),
  favourites: z
    .enum(['true', 'false'], { error: 'favourites must be true or false' })
    .optional()
    .transform((raw) => raw === 'true')
    .describe('Only the favourites'),
  offset: listInt('offset', 0, 1_000_000),
  limit: listInt('limit', 1, LIST_LIMITS.pageMax),
});

// ------------------------------------------------------------------------------------------
// audit log
// ------------------------------------------------------------------------------------------

const auditText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text of at most ${max} characters` })
    .max(max, `${name} must be text of at most ${max} characters`)
    .optional()
    .transform((value) => value || undefined);

const auditDate = (name: string) =>
  auditText(name, 40)
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const parsed = new Date(value);
      if (!Number.isNaN(parsed.getTime())) return parsed;
      ctx.addIssue({ code: 'custom', message: `${name} must be an ISO 8601 date or time` });
      return z.NEVER;
    })
    .meta({ override: { type: 'string', format: 'date-time' } });

export const AuditFilterQuery = z.object({
  action: auditText('action', 100).describe(
    'An exact action, or a prefix ending in "." ("api_key." matches every key event)',
  ),
  actor: auditText('actor', 254).describe("Part of the actor's email or key name, or its id"),
  project: auditText('project', 36)
    .superRefine(
      check((id) => (id && !/^[0-9a-f-]{36}$/i.test(id) ? 'project must be a project id' : null)),
    )
    .describe('Project id'),
  from: auditDate('from'),
  to: auditDate('to'),
});

export const AuditPageQuery = AuditFilterQuery.extend({
  limit: z
    .string({ error: 'limit must be an integer from 1 to 200' })
    .optional()
    .transform((raw, ctx) => {
      const value = Number(raw ?? '50');
      if (Number.isInteger(value) && value >= 1 && value <= 200) return value;
      ctx.addIssue({ code: 'custom', message: 'limit must be an integer from 1 to 200' });
      return z.NEVER;
    })
    .meta({ override: { type: 'integer', minimum: 1, maximum: 200, default: 50 } }),
  before: z
    .string({ error: 'before must be an event id' })
    .optional()
    .superRefine(
      check((raw) => (raw && !/^[0-9]{1,19}$/.test(raw) ? 'before must be an event id' : null)),
    )
    .transform((raw) => (raw ? BigInt(raw) : undefined))
    .meta({
      override: {
        type: 'string',
        pattern: '^[0-9]{1,19}$',
        description: 'next_before of the previous page',
      },
    }),
});

// ------------------------------------------------------------------------------------------
// upload protocol
// ------------------------------------------------------------------------------------------

export const SummaryQuery = z.object({
  commit: z
    .string({ error: 'commit is required: GET /summary?commit=<sha>' })
    .transform((raw) => raw.trim().toLowerCase())
    .superRefine(
      check((sha) =>
        !sha
          ? 'commit is required: GET /summary?commit=<sha>'
          : SHA_PATTERN.test(sha)
            ? null
            : 'commit must be a hexadecimal commit SHA',
      ),
    )
    .meta({ override: { type: 'string', pattern: '^[0-9a-fA-F]{4,64}$' } }),
});

export const AdminFailedQuery = z.object({
  limit: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      // Out-of-range values are clamped, not refused.
      if (raw === undefined) return 100;
      if (/^-?\d+$/.test(raw)) return Math.min(Math.max(Number(raw), 1), 1000);
      ctx.addIssue({ code: 'custom', message: 'Validation failed (numeric string is expected)' });
      return z.NEVER;
    })
    .meta({ override: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } }),
});
