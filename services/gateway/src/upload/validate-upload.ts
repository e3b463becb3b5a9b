import { BadRequestException } from '@nestjs/common';
import {
  LINE_LIMIT,
  SHA_PATTERN as SHA,
  SYMBOL_TEXT_FIELDS as SYMBOL_TEXT,
  UINT64_LIMIT,
  UPLOAD_TEXT_MAX as MAX,
  type MemoryReport,
  type ReportKindName,
} from '@memtrail/contracts';
import type { BlockSymbol } from '@memtrail/symbol-blocks';
import { parseGithubContext, type GithubContext } from './github-context.js';

export type UploadKind = ReportKindName;

/** An upload envelope checked and reduced to what the server stores. */
export interface ValidUpload {
  kind: UploadKind;
  targetName: string;
  commitSha: string;
  /** The commit to compare with; null when unknown or explicitly none. */
  parentSha: string | null;
  /** `parent_commit_hash: null` was present: the commit has no parent on purpose. */
  noParent: boolean;
  branch: string | null;
  commit: {
    message: string | null;
    authorName: string | null;
    authorEmail: string | null;
    committedAt: Date | null;
    tags: string[];
  };
  pr: {
    number: string | null;
    name: string | null;
    authorName: string | null;
    authorEmail: string | null;
  };
  analysisVersion: string | null;
  /** The pull request a tokenless upload claims to come from (`metadata.github_context`). */
  githubContext: GithubContext | null;
  /** The report; for identical and failed builds it may be empty. */
  report: MemoryReport;
}

class Fields {
  constructor(private readonly errors: string[]) {}

  fail(message: string): void {
    this.errors.push(message);
  }

  object(value: unknown, path: string, required = true): Record<string, unknown> | undefined {
    if (value === undefined || value === null) {
      if (required) this.fail(`${path} is required`);
      return undefined;
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
      this.fail(`${path} must be an object`);
      return undefined;
    }
    return value as Record<string, unknown>;
  }

  /** Optional string: absent and null read as null; anything else must be a string. */
  string(value: unknown, path: string, maxLength: number): string | null {
    if (value === undefined || value === null) return null;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value !== 'string') {
      this.fail(`${path} must be a string`);
      return null;
    }
    if (value.length > maxLength) this.fail(`${path} cannot exceed ${maxLength} characters`);
    this.noNul(value, path);
    return value;
  }

  /** Postgres text and JSON cannot hold U+0000: refused here, not a 500 from the database. */
  noNul(value: unknown, path: string): void {
    if (typeof value === 'string' && value.includes('\u0000')) {
      this.fail(`${path} cannot contain NUL characters`);
    }
  }

  /** An address, size or line: stored as ClickHouse UInt64, so a whole number in its range. */
  count(value: unknown, path: string): void {
    if (!isCount(value)) this.fail(`${path} must be a non-negative integer`);
  }
}

const isCount = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < UINT64_LIMIT;

/** Optional text of a report entry: absent, null or a string. */
const isText = (value: unknown): boolean =>
  value === undefined || value === null || typeof value === 'string';

function checkLayout(f: Fields, layout: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(layout)) {
    const path = `memory_analysis.memory_layout.${JSON.stringify(name).slice(1, -1)}`;
    f.noNul(name, `${path} (a region name)`);
    const region = f.object(value, path);
    if (!region) continue;
    for (const key of ['address', 'limit_size', 'used_size'] as const)
      f.count(region[key], `${path}.${key}`);
    if (!isText(region.type)) f.fail(`${path}.type must be a string`);
    f.noNul(region.type, `${path}.type`);
    if (region.sections === undefined) continue;
    if (!Array.isArray(region.sections)) {
      f.fail(`${path}.sections must be an array`);
      continue;
    }
    region.sections.forEach((section: unknown, i: number) => {
      const s = f.object(section, `${path}.sections[${i}]`);
      if (!s) return;
      if (typeof s.name !== 'string') f.fail(`${path}.sections[${i}].name must be a string`);
      f.noNul(s.name, `${path}.sections[${i}].name`);
      f.count(s.address, `${path}.sections[${i}].address`);
      f.count(s.size, `${path}.sections[${i}].size`);
      if (!isText(s.type)) f.fail(`${path}.sections[${i}].type must be a string`);
      f.noNul(s.type, `${path}.sections[${i}].type`);
    });
  }
}

function checkSymbols(f: Fields, symbols: unknown): void {
  if (symbols === undefined || symbols === null) return;
  if (!Array.isArray(symbols)) return f.fail('memory_analysis.symbols must be an array');
  // Stop after a few bad entries: one message per bad field of 40k symbols helps nobody.
  let bad = 0;
  for (let i = 0; i < symbols.length && bad < 5; i++) {
    const s = symbols[i] as Record<string, unknown> | null;
    if (!s || typeof s !== 'object') {
      f.fail(`memory_analysis.symbols[${i}] must be an object`);
      bad++;
    } else if (!symbolFits(s)) {
      const problems = symbolProblems(s, `memory_analysis.symbols[${i}]`);
      problems.forEach((problem) => f.fail(problem));
      bad += problems.length;
    }
  }
}

const isLine = (value: unknown) =>
  value === undefined || value === null || (isCount(value) && (value as number) < LINE_LIMIT);

/**
 * Whether the worker can store a symbol: checked at upload, so a bad symbol is a 400 naming it
 * rather than an ingest job failing after the upload was accepted. The fields of SYMBOL_TEXT
 * are spelled out because a fixed property read is several times faster than a lookup by key,
 * and this runs on every symbol of every upload.
 */
function symbolFits(s: Record<string, unknown>): boolean {
  return (
    typeof s.name === 'string' &&
    isCount(s.address) &&
    isCount(s.size) &&
    isLine(s.source_line) &&
    isText(s.type) &&
    isText(s.binding) &&
    isText(s.visibility) &&
    isText(s.section) &&
    isText(s.source_file) &&
    isText(s.archive) &&
    isText(s.object_file) &&
    isText(s.full_name)
  );
}

/** What does not fit, field by field, for the message of a symbol that `symbolFits` refused. */
function symbolProblems(s: Record<string, unknown>, path: string): string[] {
  return [
    typeof s.name !== 'string' && `${path}.name must be a string`,
    !isCount(s.address) && `${path}.address must be a non-negative integer`,
    !isCount(s.size) && `${path}.size must be a non-negative integer`,
    !isLine(s.source_line) && `${path}.source_line must be a non-negative 32-bit integer`,
    ...SYMBOL_TEXT.map((key) => !isText(s[key]) && `${path}.${key} must be a string`),
  ].filter((problem): problem is string => Boolean(problem));
}

/**
 * What does not fit in one symbol of a block a client sent (none when the worker can store it):
 * the checks of `symbolFits`, on the block's own fields (a relative address, '' for no text).
 */
export function blockSymbolFaults(s: BlockSymbol, path: string): string[] {
  if (
    typeof s.name === 'string' &&
    typeof s.full_name === 'string' &&
    isCount(s.rel) &&
    isCount(s.size) &&
    isLine(s.source_line) &&
    typeof s.type === 'string' &&
    typeof s.binding === 'string' &&
    typeof s.visibility === 'string' &&
    typeof s.source_file === 'string' &&
    typeof s.archive === 'string' &&
    typeof s.object_file === 'string'
  )
    return [];
  const problems = symbolProblems({ ...s, address: s.rel }, path);
  return problems.length > 0 ? problems : [`${path} must have every field of a block's symbol`];
}

function parseTimestamp(f: Fields, value: string | null): Date | null {
  if (value === null || value === '') return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    f.fail('metadata.git.commit_timestamp must be an ISO 8601 date');
    return null;
  }
  return date;
}

/**
 * Checks an upload envelope as the MemBrowse CLI (any version since 1.0) or ours sends it.
 * Hand-written rather than the `UploadEnvelope` schema of @memtrail/contracts: it runs on every
 * symbol of every upload and is several times faster (npm run bench:validation,
 * docs/benchmarks.md); its limits and types come from the contract (upload-limits.ts).
 * Unknown keys are ignored and missing optional fields tolerated; every problem found is named
 * by its path in one 400 answer.
 */
export function validateUpload(body: unknown): ValidUpload {
  const errors: string[] = [];
  const f = new Fields(errors);
  const root = f.object(body, 'request body');
  const metadata = f.object(root?.metadata, 'metadata');
  const git = f.object(metadata?.git, 'metadata.git', false) ?? {};
  const analysis = f.object(root?.memory_analysis, 'memory_analysis');

  const identical = metadata?.identical === true;
  const buildFailed = metadata?.build_failed === true;
  const kind: UploadKind = buildFailed ? 'build_failed' : identical ? 'identical' : 'full';

  const targetName =
    f.string(metadata?.target_name, 'metadata.target_name', MAX.targetName)?.trim() ?? '';
  if (metadata && !targetName) f.fail('metadata.target_name is required');
  if ([...targetName].some((c) => c.charCodeAt(0) < 0x20)) {
    f.fail('metadata.target_name cannot contain control characters');
  }

  const rawSha =
    f.string(git.commit_hash, 'metadata.git.commit_hash', MAX.sha)?.trim().toLowerCase() ?? '';
  if (metadata && !rawSha) f.fail('metadata.git.commit_hash is required');
  else if (rawSha && !SHA.test(rawSha))
    f.fail('metadata.git.commit_hash must be a hexadecimal commit SHA');

  const noParent = 'parent_commit_hash' in git && git.parent_commit_hash === null;
  const base =
    f
      .string(git.base_commit_hash, 'metadata.git.base_commit_hash', MAX.sha)
      ?.trim()
      .toLowerCase() || null;
  if (base && !SHA.test(base))
    f.fail('metadata.git.base_commit_hash must be a hexadecimal commit SHA');
  const parentSha = noParent || base === rawSha ? null : base;

  const tags = git.tags ?? [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string'))
    f.fail('metadata.git.tags must be an array of strings');
  else tags.forEach((tag, i) => f.noNul(tag, `metadata.git.tags[${i}]`));

  if (analysis) {
    const layout = f.object(analysis.memory_layout, 'memory_analysis.memory_layout', false);
    if (kind === 'full' && (!layout || Object.keys(layout).length === 0)) {
      f.fail('memory_layout is required and cannot be empty');
    } else if (layout) {
      checkLayout(f, layout);
    }
    checkSymbols(f, analysis.symbols);
  }
  if (kind === 'identical' && !parentSha) {
    f.fail(
      "metadata.git.base_commit_hash is required for an identical upload (its footprint is the parent's)",
    );
  }

  const commit = {
    message: f.string(git.commit_message, 'metadata.git.commit_message', MAX.commitMessage),
    authorName: f.string(git.author_name, 'metadata.git.author_name', MAX.person),
    authorEmail: f.string(git.author_email, 'metadata.git.author_email', MAX.person),
    committedAt: parseTimestamp(
      f,
      f.string(git.commit_timestamp, 'metadata.git.commit_timestamp', MAX.timestamp),
    ),
    tags: Array.isArray(tags) ? (tags as string[]) : [],
  };
  const pr = {
    number: f.string(git.pr_number, 'metadata.git.pr_number', MAX.prNumber),
    name: f.string(git.pr_name, 'metadata.git.pr_name', MAX.prName),
    authorName: f.string(git.pr_author_name, 'metadata.git.pr_author_name', MAX.person),
    authorEmail: f.string(git.pr_author_email, 'metadata.git.pr_author_email', MAX.person),
  };
  const branch = f.string(git.branch_name, 'metadata.git.branch_name', MAX.branch)?.trim() || null;
  const analysisVersion = f.string(
    metadata?.analysis_version,
    'metadata.analysis_version',
    MAX.analysisVersion,
  );
  const githubContext = parseGithubContext(metadata?.github_context, (problem) => f.fail(problem));

  if (errors.length > 0) throw new BadRequestException(errors.join('; '));
  const report = analysis as unknown as MemoryReport;
  return {
    kind,
    targetName,
    commitSha: rawSha,
    parentSha,
    noParent,
    branch: branch === 'unknown' ? null : branch,
    commit,
    pr,
    analysisVersion,
    githubContext,
    report: { ...report, symbols: report.symbols ?? [], memory_layout: report.memory_layout ?? {} },
  };
}
