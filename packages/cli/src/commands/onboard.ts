import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GitMetadata, MemoryReport } from '@memtrail/contracts';
import { splitWords, UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import { apiKey, apiUrl, RuntimeError, userAgent, type CliIo } from '../context.js';
import { git, gitOrNull } from '../git/exec.js';
import { commitDetails, repositoryFromRemote } from '../git/local.js';
import { runBuild, tail } from '../onboard/build.js';
import { planCommits, touches, type PlannedCommit, type PlanRequest } from '../onboard/plan.js';
import { duration, Progress } from '../onboard/progress.js';
import { OnboardState, type Outcome } from '../onboard/state.js';
import { BuildWorktree } from '../onboard/worktree.js';
import { buildEnvelope, failedBuildReport, identicalReport } from '../upload/envelope.js';
import { retryPolicyFromEnv } from '../upload/http.js';
import { budgetsOf } from '../upload/result.js';
import { postUpload } from '../upload/upload.js';
import { generateReport } from './generate.js';
import { ANALYSIS_OPTIONS, API_OPTIONS, resolvePath } from './options.js';

export const onboardSpec: CommandSpec = {
  name: 'onboard',
  summary:
    'Upload the history of a target: build each of the last N commits (or a list) in a separate ' +
    'git worktree, oldest first, and upload one report per commit. Resumable.',
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
      description: 'linker script, relative to the repository root',
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
  alerts: number;
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

function footprint(report: MemoryReport): string {
  return Object.entries(report.memory_layout)
    .map(([name, r]) => `${name} ${r.used_size} B`)
    .join(', ');
}

export async function runOnboard(args: ParsedArgs, io: CliIo): Promise<number> {
  const build = args.requireString('build');
  const elf = args.requireString('elf');
  const target = args.requireString('target-name');
  const plan = planRequest(args);
  const dryRun = args.flag('dry-run');
  const key = dryRun ? '' : apiKey(io.env, args.string('api-key-env'), 'onboard');
  const url = apiUrl(args.string('api-url'), io.env);
  const buildDirs = splitWords(args.list('build-dirs'));

  const repo = await gitOrNull(io.cwd, ['rev-parse', '--show-toplevel']);
  if (!repo) throw new RuntimeError(`${io.cwd} is not inside a git repository`);
  let commits: PlannedCommit[];
  try {
    commits = await planCommits(repo, plan);
  } catch (error) {
    throw new RuntimeError(`cannot list the commits to onboard: ${(error as Error).message}`);
  }
  const common = resolve(repo, await git(repo, ['rev-parse', '--git-common-dir']));
  const stateDir = join(common, 'memtrail');
  const state = OnboardState.load(
    OnboardState.fileFor(stateDir, target, url),
    target,
    url,
    args.flag('restart'),
  );
  const branch = (await gitOrNull(repo, ['symbolic-ref', '--short', '-q', 'HEAD'])) || null;
  const remote = await gitOrNull(repo, ['config', '--get', 'remote.origin.url']);
  const repository = remote ? repositoryFromRemote(remote) : null;

  const explicitDir = args.string('worktree-dir');
  const worktreeDir =
    explicitDir ??
    join(
      tmpdir(),
      'memtrail-onboard',
      createHash('sha256').update(`${repo}\0${target}`).digest('hex').slice(0, 12),
    );
  const progress = new Progress(io.stderr, commits.length);
  const totals: Totals = { full: 0, identical: 0, build_failed: 0, skipped: 0, alerts: 0 };
  let worktree: BuildWorktree | undefined;
  let previous: Outcome | undefined;
  const policy = retryPolicyFromEnv(io.env);

  try {
    for (const [index, commit] of commits.entries()) {
      const done = state.outcome(commit.sha);
      if (done) {
        totals.skipped++;
        previous = done;
        progress.finished(commit.sha, `already uploaded (${done})`);
        continue;
      }
      const started = Date.now();
      // The first commit is always built; an identical commit must follow a built one.
      const unchanged =
        index > 0 &&
        buildDirs.length > 0 &&
        previous !== 'build_failed' &&
        commit.base !== null &&
        !(await touches(repo, commit.base, commit.sha, buildDirs));

      let outcome: Outcome;
      let report: MemoryReport;
      if (unchanged) {
        outcome = 'identical';
        report = identicalReport(elf);
      } else {
        progress.status(commit.sha, 'checking out');
        worktree ??= await BuildWorktree.open(repo, worktreeDir, explicitDir === undefined);
        await worktree.checkout(commit.sha, args.flag('clean'));
        const elfPath = resolvePath(worktree.path, elf);
        // A stale ELF from the previous commit must never pass for this commit's build.
        rmSync(elfPath, { force: true });
        progress.status(commit.sha, 'building');
        const result = await runBuild(
          build,
          worktree.path,
          { ...io.env, MEMTRAIL_ONBOARD_COMMIT: commit.sha },
          join(stateDir, 'logs', `${commit.sha}.log`),
        );
        if (!result.ok || !existsSync(elfPath)) {
          const why = result.ok
            ? `the build did not produce ${elf}`
            : `the build failed (${result.status})`;
          progress.note(
            `${commit.sha.slice(0, 7)}: ${why}; log ${result.log}\n${tail(result.log)}`,
          );
          outcome = 'build_failed';
          report = failedBuildReport(elf);
        } else {
          progress.status(commit.sha, 'analysing');
          report = await generateReport(args, io, worktree.path, elf, args.list('ld'));
          outcome = Object.keys(report.memory_layout).length === 0 ? 'build_failed' : 'full';
          if (outcome === 'build_failed') report = failedBuildReport(elf);
        }
      }

      const details = await commitDetails(repo, commit.sha);
      const gitMeta: GitMetadata = {
        commit_hash: commit.sha,
        base_commit_hash: commit.base,
        branch_name: branch,
        repository,
        ...details,
        pr_number: null,
        pr_name: null,
        pr_author_name: null,
        pr_author_email: null,
        ...(commit.explicitNoParent ? { parent_commit_hash: null } : {}),
      };
      const envelope = buildEnvelope({
        report,
        git: gitMeta,
        targetName: target,
        identical: outcome === 'identical',
        buildFailed: outcome === 'build_failed',
      });
      const label = outcome === 'full' ? `full: ${footprint(report)}` : outcome.replace('_', ' ');
      if (dryRun) {
        progress.finished(commit.sha, `would upload ${label}`, Date.now() - started);
      } else {
        progress.status(commit.sha, 'uploading');
        let response;
        try {
          response = await postUpload({
            apiUrl: url,
            apiKey: key,
            envelope,
            userAgent: userAgent(io.env),
            policy,
            log: () => undefined,
          });
        } catch (error) {
          throw new RuntimeError(
            `upload of ${commit.sha} failed, stopping (run again to resume): ${(error as Error).message}`,
          );
        }
        state.record(commit.sha, outcome);
        totals.alerts += budgetsOf(response).length;
        progress.finished(commit.sha, `uploaded ${label}`, Date.now() - started);
      }
      totals[outcome]++;
      previous = outcome;
    }
  } finally {
    if (worktree && !args.flag('keep-worktree')) await worktree.remove().catch(() => undefined);
  }

  const uploaded = totals.full + totals.identical + totals.build_failed;
  io.stderr.write(
    `Onboarding ${target}: processed ${commits.length} commits in ${duration(progress.elapsedMs())}: ` +
      `${dryRun ? 'would upload' : 'uploaded'} ${uploaded} (${totals.full} built, ${totals.identical} identical, ` +
      `${totals.build_failed} build failed), ${totals.skipped} already uploaded` +
      `${totals.alerts > 0 ? `, ${totals.alerts} budget alert(s)` : ''}\n`,
  );
  return 0;
}
