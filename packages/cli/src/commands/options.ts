/** Option groups shared by several commands, and how they turn into requests. */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { GitMetadata } from '@memtrail/contracts';
import { parseDefines, splitWords, UsageError, type OptionSpec, type ParsedArgs } from '../args.js';
import { RuntimeError } from '../context.js';
import type { ReportRequest } from '../engine.js';
import {
  DEFAULT_COLLAPSE_AFTER,
  DEFAULT_MAX_SYMBOLS,
  type RenderOptions,
} from '../render/summary-markdown.js';

export const LINKER_OPTIONS: OptionSpec[] = [
  {
    name: 'library-path',
    short: 'L',
    kind: 'list',
    valueName: 'DIR',
    description:
      'directory searched for included files (ld INCLUDE, ICF include, scatter #include)',
  },
  {
    name: 'def',
    kind: 'list',
    valueName: 'NAME=VALUE',
    description:
      'linker variable: ld --defsym for names the script leaves undefined, ILINK --config_def, scatter -D',
  },
];

export const ANALYSIS_OPTIONS: OptionSpec[] = [
  ...LINKER_OPTIONS,
  {
    name: 'map-file',
    kind: 'string',
    valueName: 'FILE',
    description: 'linker map (GNU LD, LLD, IAR): archive/object per symbol',
  },
  {
    name: 'skip-section',
    kind: 'list',
    valueName: 'NAME',
    description: 'leave this section (and its symbols) out',
  },
  {
    name: 'limits',
    kind: 'string',
    valueName: 'FILE',
    description: 'linker configuration with the real region sizes',
  },
  {
    name: 'skip-line-program',
    kind: 'boolean',
    description: 'skip DWARF line tables (faster, no source lines)',
  },
  {
    name: 'source-root',
    kind: 'string',
    valueName: 'DIR',
    description: 'build folder stripped from source paths, so they read relative to the repository',
  },
  {
    name: 'require-regions',
    kind: 'boolean',
    description: 'fail instead of falling back to default Code/Data regions',
  },
];

export const API_OPTIONS: OptionSpec[] = [
  {
    name: 'api-url',
    kind: 'string',
    valueName: 'URL',
    description: 'server base URL (default $MEMTRAIL_API_URL or http://localhost:5000)',
  },
  {
    name: 'project',
    kind: 'string',
    valueName: 'ID|NAME',
    description:
      'project an organisation CI token uploads to and reads from (default $MEMTRAIL_PROJECT)',
  },
  {
    name: 'api-key-env',
    kind: 'string',
    valueName: 'NAME',
    description:
      'environment variable holding the API key (default MEMTRAIL_API_KEY, then MEMBROWSE_API_KEY)',
  },
];

const GIT_FLAGS: Array<[string, keyof GitMetadata, string]> = [
  ['commit-sha', 'commit_hash', 'commit being reported'],
  ['branch-name', 'branch_name', 'branch name'],
  ['repo-name', 'repository', 'repository as owner/name'],
  ['commit-message', 'commit_message', 'commit message'],
  ['commit-timestamp', 'commit_timestamp', 'commit time (ISO 8601)'],
  ['author-name', 'author_name', 'commit author name'],
  ['author-email', 'author_email', 'commit author email'],
  ['pr-number', 'pr_number', 'pull/merge request number'],
  ['pr-name', 'pr_name', 'pull/merge request title'],
  ['pr-author-name', 'pr_author_name', 'pull/merge request author'],
  ['pr-author-email', 'pr_author_email', 'pull/merge request author email'],
];

export const UPLOAD_OPTIONS: OptionSpec[] = [
  {
    name: 'target-name',
    kind: 'string',
    valueName: 'NAME',
    description: 'target / build configuration (required to upload)',
  },
  ...API_OPTIONS,
  {
    name: 'identical',
    kind: 'boolean',
    description: 'metadata-only upload: same footprint as the parent (no ELF needed)',
  },
  {
    name: 'build-failed',
    kind: 'boolean',
    description: 'record that this commit did not build (no ELF needed)',
  },
  {
    name: 'dont-fail-on-alerts',
    kind: 'boolean',
    description: 'exit 0 even when budgets are exceeded',
  },
  {
    name: 'output-raw-response',
    kind: 'boolean',
    description: 'print {comparison_url, api_response, target_name, pr_number} as JSON',
  },
  {
    name: 'no-git',
    kind: 'boolean',
    description: 'do not detect git metadata; send only the flags below',
  },
  {
    name: 'base-sha',
    aliases: ['parent-sha'],
    kind: 'string',
    valueName: 'SHA',
    description: "commit to compare against ('none' or '' = no parent)",
  },
  ...GIT_FLAGS.map(([name, , description]): OptionSpec => ({
    name,
    kind: 'string',
    valueName: 'VALUE',
    description,
  })),
  {
    name: 'tags',
    kind: 'list',
    valueName: 'TAG',
    description: 'tags of the commit (space or comma separated)',
  },
];

export interface GitFlags {
  explicit: GitMetadata;
  noParent: boolean;
  noGit: boolean;
}

export function gitFlags(args: ParsedArgs): GitFlags {
  const explicit: GitMetadata = {};
  for (const [flag, key] of GIT_FLAGS) {
    const value = args.string(flag);
    if (value !== undefined) (explicit as Record<string, unknown>)[key] = value;
  }
  if (args.has('tags')) explicit.tags = splitWords(args.list('tags'));
  const base = args.string('base-sha');
  const noParent =
    base !== undefined && (base.trim() === '' || base.trim().toLowerCase() === 'none');
  if (base !== undefined && !noParent) explicit.base_commit_hash = base.trim();
  return { explicit, noParent, noGit: args.flag('no-git') };
}

/** Resolves a user path against a base directory (the cwd, or an onboarding worktree). */
export function resolvePath(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

export function requireFile(path: string, what: string): void {
  if (!existsSync(path)) throw new RuntimeError(`${what} not found: ${path}`);
}

/** The engine request for one ELF; `base` resolves relative paths. Missing files fail here. */
export function reportRequest(
  args: ParsedArgs,
  base: string,
  elf: string,
  scripts: string[],
): ReportRequest {
  const limits = args.string('limits');
  if (limits !== undefined && scripts.length === 0) {
    throw new UsageError('--limits needs the primary linker scripts as well', args.command);
  }
  const mapFile = args.string('map-file');
  const sourceRoot = args.string('source-root');
  const request: ReportRequest = {
    elfPath: resolvePath(base, elf),
    filePath: elf,
    cwd: base,
    linkerScripts: scripts.map((s) => resolvePath(base, s)),
    searchPaths: args.list('library-path').map((d) => resolvePath(base, d)),
    defines: parseDefines(args.list('def'), args.command),
    mapFile: mapFile === undefined ? undefined : resolvePath(base, mapFile),
    skipSections: args.list('skip-section'),
    limits: limits === undefined ? undefined : resolvePath(base, limits),
    skipLineProgram: args.flag('skip-line-program'),
    ...(sourceRoot === undefined ? {} : { sourceRoot: resolvePath(base, sourceRoot) }),
  };
  requireFile(request.elfPath, 'ELF file');
  for (const script of request.linkerScripts) requireFile(script, 'linker configuration file');
  if (request.mapFile) requireFile(request.mapFile, 'map file');
  if (request.limits) requireFile(request.limits, 'limits linker script');
  return request;
}

/** How a summary becomes Markdown: `summary` and `comment` share them. */
export const RENDER_OPTIONS: OptionSpec[] = [
  {
    name: 'template',
    kind: 'string',
    valueName: 'FILE',
    description:
      'Markdown template with {{ marker }}, {{ targets }}, {{ overview }}, {{ commit }}, {{ short_commit }}, {{ pr_number }}, {{ dashboard_url }}, {{ alert_count }}, {{ target_count }}',
  },
  {
    name: 'max-symbols',
    kind: 'string',
    valueName: 'N',
    description: `symbol changes shown per target (default ${DEFAULT_MAX_SYMBOLS}; 0: none)`,
  },
  {
    name: 'collapse-after',
    kind: 'string',
    valueName: 'N',
    description: `fold each target's details when there are more than N targets (default ${DEFAULT_COLLAPSE_AFTER})`,
  },
];

export function renderOptions(args: ParsedArgs): RenderOptions {
  return { maxSymbols: args.integer('max-symbols'), collapseAfter: args.integer('collapse-after') };
}
