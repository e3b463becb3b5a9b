import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MemoryReport } from '@memtrail/contracts';
import { splitWords, UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import { apiKey, apiUrl, chosenProject, RuntimeError, type CliIo } from '../context.js';
import { git, gitOrNull } from '../git/exec.js';
import { commitDetails, repositoryFromRemote } from '../git/local.js';
import { findJump, type Footprint } from '../onboard/bisect.js';
import { planCommits, touches, type PlannedCommit, type PlanRequest } from '../onboard/plan.js';
import { duration, Progress } from '../onboard/progress.js';
import { footprintOf, oneLine, OnboardRunner, type Produced } from '../onboard/runner.js';
import { OnboardState, type Outcome } from '../onboard/state.js';
import {
  activeSubmodules,
  SUBMODULE_MODES,
  type ActiveSubmodule,
  type SubmoduleMode,
} from '../onboard/submodules.js';
import { retryPolicyFromEnv } from '../upload/http.js';
import { ANALYSIS_OPTIONS, API_OPTIONS } from './options.js';

export const onboardSpec: CommandSpec = {
  name: 'onboard',
  summary:
    'Upload the history of a target: build each of the last N commits (or a list) in a separate ' +
    'git worktree, oldest first, and upload one report per commit; or binary-search where a ' +
    'region jumped. Resumable, also after a cancelled CI job.',
  usage: 'memtrail onboard [N] --build "<command>" --elf <path> --target-name NAME [options]',
  positionals: [{ name: 'N', description: 'how many first-parent commits of HEAD to upload' }],
  options: [
    {
      name: 'build',
      kind: 'string',
      valueName: 'COMMAND',
      description: 'shell command that builds the firmware (run in the worktree)',
    },
    {
      name: 'elf',
      kind: 'string',
      valueName: 'PATH',
      description: 'ELF produced by the build, relative to the repository root',
    },
    {
      name: 'ld',
      kind: 'list',
      valueName: 'SCRIPT',
      description:
        'linker configuration file (ld script, .icf, .sct), relative to the repository root',
    },
    ...ANALYSIS_OPTIONS,
    {
      name: 'target-name',
      kind: 'string',
      valueName: 'NAME',
      description: 'target / build configuration',
    },
    ...API_OPTIONS,
    {
      name: 'commits',
      kind: 'list',
      valueName: 'REFS',
      description: 'explicit commits or tags, in order (space separated)',
    },
    {
      name: 'initial-commit',
      kind: 'string',
      valueName: 'SHA',
      description: 'start the history at this commit',
    },
    {
      name: 'initial-parent',
      kind: 'string',
      valueName: 'REF',
      description: 'with --commits: the base of the first commit',
    },
    {
      name: 'build-dirs',
      kind: 'list',
      valueName: 'DIR',
      description: 'upload commits touching none of these paths as identical, without building',
    },
    {
      name: 'binary-search',
      kind: 'boolean',
      description:
        'find the commit where a region jumped between the first and last commit, building only O(log n) of them',
    },
    {
      name: 'region',
      kind: 'string',
      valueName: 'NAME',
      description:
        'with --binary-search: the region to follow (default: the one that changed most)',
    },
    {
      name: 'submodules',
      kind: 'string',
      valueName: 'MODE',
      description:
        'active (default: those initialised in this checkout, borrowing its objects), none, or all (fetched from their URLs)',
    },
    { name: 'dry-run', kind: 'boolean', description: 'build and analyse, but upload nothing' },
    {
      name: 'restart',
      kind: 'boolean',
      description: 'ignore the record of commits already uploaded',
    },
    {
      name: 'clean',
      kind: 'boolean',
      description: 'git clean the worktree before each build (slower, no stale files)',
    },
    {
      name: 'worktree-dir',
      kind: 'string',
      valueName: 'DIR',
      description: 'where to keep the build worktree (default: a temporary directory)',
    },
    {
      name: 'keep-worktree',
      kind: 'boolean',
      description: 'keep the worktree afterwards (faster next run)',
    },
  ],
};

interface Totals {
  full: number;
  identical: number;
  build_failed: number;
  skipped: number;
}

function planRequest(args: ParsedArgs): PlanRequest {
  const list = splitWords(args.list('commits'));
  const countText = args.positionals[0];
  if (list.length > 0) {
    if (countText !== undefined || args.has('initial-commit')) {
      throw new UsageError('--commits cannot be combined with N or --initial-commit', 'onboard');
    }
    return { kind: 'list', refs: list, initialParent: args.string('initial-parent') };
  }
  if (args.has('initial-parent'))
    throw new UsageError('--initial-parent only applies to --commits', 'onboard');
  if (countText === undefined && args.flag('binary-search') && args.has('initial-commit')) {
    // Everything from the initial commit to HEAD: the search builds only a few of them.
    return {
      kind: 'history',
      count: Number.MAX_SAFE_INTEGER,
      initialCommit: args.string('initial-commit'),
    };
  }
  if (countText === undefined)
    throw new UsageError('give the number of commits N or --commits', 'onboard');
  if (!/^[1-9]\d*$/.test(countText))
    throw new UsageError(`N must be a positive whole number, got '${countText}'`, 'onboard');
  return {
    kind: 'history',
    count: Number(countText),
    initialCommit: args.string('initial-commit'),
  };
}

function footprintText(report: MemoryReport): string {
  return Object.entries(report.memory_layout)
    .map(([name, r]) => `${name} ${r.used_size} B`)
    .join(', ');
}

function label(produced: Produced): string {
  return produced.outcome === 'full'
    ? `full: ${footprintText(produced.report)}`
    : produced.outcome.replace('_', ' ');
}

/** Uploads every planned commit, oldest first, skipping those already uploaded. */
async function onboardAll(
  runner: OnboardRunner,
  commits: PlannedCommit[],
  options: {
    repo: string;
    buildDirs: string[];
    dryRun: boolean;
    progress: Progress;
    totals: Totals;
  },
): Promise<void> {
  const { progress, totals } = options;
  let previous: Outcome | undefined;
  for (const [index, commit] of commits.entries()) {
    const done = await runner.known(commit.sha);
    if (done) {
      totals.skipped++;
      previous = done.outcome;
      progress.finished(commit.sha, `already uploaded (${done.outcome})`);
      continue;
    }
    const started = Date.now();
    // The first commit is always built; an identical commit must follow a built one.
    const unchanged =
      index > 0 &&
      options.buildDirs.length > 0 &&
      previous !== 'build_failed' &&
      commit.base !== null &&
      !(await touches(options.repo, commit.base, commit.sha, options.buildDirs));
    const produced = unchanged ? runner.identical() : await runner.produce(commit.sha);
    if (options.dryRun) {
      progress.finished(commit.sha, `would upload ${label(produced)}`, Date.now() - started);
    } else {
      await runner.upload(commit.sha, commit.base, produced, commit.explicitNoParent);
      progress.finished(commit.sha, `uploaded ${label(produced)}`, Date.now() - started);
    }
    totals[produced.outcome]++;
    previous = produced.outcome;
  }
}

/**
 * Binary search: probes commits (building, or reading what the server already has), uploads
 * each probed commit linked to the probed one before it, and says where the region jumped.
 */
async function bisectHistory(
  runner: OnboardRunner,
  commits: PlannedCommit[],
  options: {
    io: CliIo;
    repo: string;
    dryRun: boolean;
    region?: string;
    progress: Progress;
    totals: Totals;
  },
): Promise<void> {
  const { progress, totals } = options;
  const probed = new Map<
    number,
    { produced?: Produced; footprint: Footprint; base: string | null }
  >();
  const uploadedBase = (index: number): string | null => {
    const earlier = [...probed.keys()].filter((i) => i < index).sort((a, b) => b - a)[0];
    return earlier === undefined ? commits[index]!.base : commits[earlier]!.sha;
  };
  const probe = async (index: number): Promise<Footprint> => {
    const commit = commits[index]!;
    const known = await runner.known(commit.sha);
    if (known && known.footprint !== undefined) {
      totals.skipped++;
      probed.set(index, { footprint: known.footprint, base: null });
      progress.finished(commit.sha, `already uploaded (${known.outcome})`);
      return known.footprint;
    }
    const started = Date.now();
    const produced = await runner.produce(commit.sha);
    const base = uploadedBase(index);
    probed.set(index, { produced, footprint: footprintOf(produced.report), base });
    if (!options.dryRun) await runner.upload(commit.sha, base, produced);
    totals[produced.outcome]++;
    progress.finished(
      commit.sha,
      `${options.dryRun ? 'would upload' : 'uploaded'} ${label(produced)}`,
      Date.now() - started,
    );
    return footprintOf(produced.report);
  };
  const found = await findJump(commits.length, probe, options.region);
  // Probes ran out of order: link each uploaded commit to the probed one just before it.
  if (!options.dryRun) {
    for (const [index, entry] of [...probed.entries()].sort(([a], [b]) => a - b)) {
      const base = uploadedBase(index);
      if (entry.produced && entry.base !== base)
        await runner.upload(commits[index]!.sha, base, entry.produced);
    }
  }
  const short = (i: number) => commits[i]!.sha.slice(0, 7);
  if ('unchanged' in found) {
    const what = options.region ? `${options.region} did not change` : 'no region changed';
    options.io.stdout.write(`${what} between ${short(0)} and ${short(commits.length - 1)}\n`);
  } else if ('unbuildable' in found) {
    throw new RuntimeError(
      `binary search needs both ends to build, and ${commits[found.unbuildable]!.sha} did not`,
    );
  } else {
    const message =
      (await commitDetails(options.repo, commits[found.at]!.sha)).commit_message ?? '';
    options.io.stdout.write(
      `${found.region} ${found.change >= 0 ? 'grew' : 'shrank'} by ${Math.abs(found.change)} B at ${commits[found.at]!.sha} ("${message.split('\n')[0]}"), after ${commits[found.before]!.sha}\n`,
    );
  }
}

export async function runOnboard(args: ParsedArgs, io: CliIo): Promise<number> {
  const build = args.requireString('build');
  const elf = args.requireString('elf');
  const target = args.requireString('target-name');
  const plan = planRequest(args);
  const dryRun = args.flag('dry-run');
  const mode = choiceOf(args.string('submodules') ?? 'active');
  const key = dryRun ? '' : apiKey(io.env, args.string('api-key-env'), 'onboard');
  const url = apiUrl(args.string('api-url'), io.env);
  const buildDirs = splitWords(args.list('build-dirs'));
  if (args.has('region') && !args.flag('binary-search')) {
    throw new UsageError('--region only applies to --binary-search', 'onboard');
  }

  const repo = await gitOrNull(io.cwd, ['rev-parse', '--show-toplevel']);
  if (!repo) throw new RuntimeError(`${io.cwd} is not inside a git repository`);
  let commits: PlannedCommit[];
  try {
    commits = await planCommits(repo, plan);
  } catch (error) {
    throw new RuntimeError(`cannot list the commits to onboard: ${oneLine(error)}`);
  }
  if (args.flag('binary-search') && commits.length < 2) {
    throw new RuntimeError('binary search needs at least two commits');
  }
  let active: ActiveSubmodule[] = [];
  try {
    if (mode === 'active') active = await activeSubmodules(repo);
  } catch (error) {
    throw new RuntimeError(`cannot list the submodules of ${repo}: ${oneLine(error)}`);
  }
  const common = resolve(repo, await git(repo, ['rev-parse', '--git-common-dir']));
  const stateDir = join(common, 'memtrail');
  let state: OnboardState;
  try {
    state = OnboardState.load(
      OnboardState.fileFor(stateDir, target, url),
      target,
      url,
      args.flag('restart'),
    );
  } catch (error) {
    throw new RuntimeError((error as Error).message);
  }
  const explicitDir = args.string('worktree-dir');
  // A binary search probes about log2(n) + 2 commits.
  const probes = Math.min(commits.length, Math.ceil(Math.log2(commits.length)) + 2);
  const progress = new Progress(io.stderr, args.flag('binary-search') ? probes : commits.length);
  const totals: Totals = { full: 0, identical: 0, build_failed: 0, skipped: 0 };
  const runner = new OnboardRunner({
    args,
    io,
    repo,
    stateDir,
    build,
    elf,
    target,
    apiUrl: url,
    apiKey: key,
    project: chosenProject(args.string('project'), io.env),
    dryRun,
    policy: retryPolicyFromEnv(io.env),
    progress,
    state,
    branch: (await gitOrNull(repo, ['symbolic-ref', '--short', '-q', 'HEAD'])) || null,
    repository: await originRepository(repo),
    worktreeDir:
      explicitDir ??
      join(
        tmpdir(),
        'memtrail-onboard',
        createHash('sha256').update(`${repo}\0${target}`).digest('hex').slice(0, 12),
      ),
    ownedWorktree: explicitDir === undefined,
    submodules: { mode, active },
  });

  try {
    if (args.flag('binary-search')) {
      await bisectHistory(runner, commits, {
        io,
        repo,
        dryRun,
        region: args.string('region'),
        progress,
        totals,
      });
    } else {
      await onboardAll(runner, commits, { repo, buildDirs, dryRun, progress, totals });
    }
  } finally {
    await runner.close();
  }

  const uploaded = totals.full + totals.identical + totals.build_failed;
  io.stderr.write(
    `Onboarding ${target}: processed ${args.flag('binary-search') ? uploaded + totals.skipped : commits.length} commits in ${duration(progress.elapsedMs())}: ` +
      `${dryRun ? 'would upload' : 'uploaded'} ${uploaded} (${totals.full} built, ${totals.identical} identical, ` +
      `${totals.build_failed} build failed), ${totals.skipped} already uploaded` +
      `${runner.alerts > 0 ? `, ${runner.alerts} budget alert(s)` : ''}\n`,
  );
  return 0;
}

function choiceOf(value: string): SubmoduleMode {
  const mode = SUBMODULE_MODES.find((m) => m === value.toLowerCase());
  if (!mode) {
    throw new UsageError(
      `--submodules must be one of ${SUBMODULE_MODES.join(', ')}, got '${value}'`,
      'onboard',
    );
  }
  return mode;
}

async function originRepository(repo: string): Promise<string | null> {
  const remote = await gitOrNull(repo, ['config', '--get', 'remote.origin.url']);
  return remote ? repositoryFromRemote(remote) : null;
}
