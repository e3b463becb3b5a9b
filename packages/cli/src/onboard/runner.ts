import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { GitMetadata, MemoryReport } from '@memtrail/contracts';
import type { ParsedArgs } from '../args.js';
import { RuntimeError, userAgent, warn, type CliIo } from '../context.js';
import { commitDetails } from '../git/local.js';
import { generateReport } from '../commands/generate.js';
import { resolvePath } from '../commands/options.js';
import { buildEnvelope, failedBuildReport, identicalReport } from '../upload/envelope.js';
import type { RetryPolicy } from '../upload/http.js';
import { budgetsOf } from '../upload/result.js';
import { fetchSummaryIfAny } from '../upload/summary.js';
import { postUpload } from '../upload/upload.js';
import type { Footprint } from './bisect.js';
import { runBuild, tail } from './build.js';
import type { Progress } from './progress.js';
import type { OnboardState, Outcome } from './state.js';
import type { ActiveSubmodule, SubmoduleMode } from './submodules.js';
import { BuildWorktree } from './worktree.js';

export interface RunnerConfig {
  args: ParsedArgs;
  io: CliIo;
  repo: string;
  stateDir: string;
  build: string;
  elf: string;
  target: string;
  apiUrl: string;
  apiKey: string;
  /** The project an organisation CI token uploads to. */
  project?: string;
  dryRun: boolean;
  policy: RetryPolicy;
  progress: Progress;
  state: OnboardState;
  branch: string | null;
  repository: string | null;
  worktreeDir: string;
  ownedWorktree: boolean;
  submodules: { mode: SubmoduleMode; active: ActiveSubmodule[] };
}

export interface Produced {
  outcome: Outcome;
  report: MemoryReport;
}

export function footprintOf(report: MemoryReport): Footprint {
  const layout = Object.entries(report.memory_layout);
  if (layout.length === 0) return null;
  return Object.fromEntries(layout.map(([name, r]) => [name, r.used_size]));
}

/** Builds, analyses and uploads single commits of a target's history, one worktree for all. */
export class OnboardRunner {
  private worktree: BuildWorktree | undefined;
  alerts = 0;

  constructor(private readonly config: RunnerConfig) {}

  /**
   * What is already uploaded for this commit: the local record of earlier runs, else the
   * server's own summary (so a CI job cancelled half-way, whose checkout is gone, resumes too).
   */
  async known(sha: string): Promise<{ outcome: Outcome; footprint?: Footprint } | undefined> {
    const { state, dryRun, io, args, target } = this.config;
    const recorded = state.outcome(sha);
    if (recorded) return { outcome: recorded };
    if (dryRun) return undefined;
    let summary;
    try {
      summary = await fetchSummaryIfAny(
        {
          sha,
          apiUrl: this.config.apiUrl,
          apiKeyEnv: args.string('api-key-env'),
          project: this.config.project,
          command: 'onboard',
        },
        io,
      );
    } catch (error) {
      warn(
        io,
        `cannot ask the server whether ${sha.slice(0, 7)} is uploaded, building it: ${(error as Error).message}`,
      );
      return undefined;
    }
    const found = summary?.data?.targets?.find((t) => t.target_name === target);
    if (!found?.kind) return undefined;
    state.record(sha, found.kind);
    const regions = found.regions;
    return {
      outcome: found.kind,
      footprint:
        found.kind === 'build_failed' || !regions
          ? null
          : Object.fromEntries(regions.map((r) => [r.name, r.used_size])),
    };
  }

  /** Checks the commit out in the worktree, builds and analyses it. */
  async produce(sha: string): Promise<Produced> {
    const { args, io, elf, build, repo, progress, stateDir } = this.config;
    progress.status(sha, 'checking out');
    try {
      this.worktree ??= await BuildWorktree.open(
        repo,
        this.config.worktreeDir,
        this.config.ownedWorktree,
      );
      await this.worktree.checkout(sha, args.flag('clean'), this.config.submodules);
    } catch (error) {
      throw new RuntimeError(`cannot check out ${sha.slice(0, 7)} for building: ${oneLine(error)}`);
    }
    const elfPath = resolvePath(this.worktree.path, elf);
    // A stale ELF from the previous commit must never pass for this commit's build.
    rmSync(elfPath, { force: true });
    progress.status(sha, 'building');
    const result = await runBuild(
      build,
      this.worktree.path,
      { ...io.env, MEMTRAIL_ONBOARD_COMMIT: sha },
      join(stateDir, 'logs', `${sha}.log`),
    );
    if (!result.ok || !existsSync(elfPath)) {
      const why = result.ok
        ? `the build did not produce ${elf}`
        : `the build failed (${result.status})`;
      progress.note(`${sha.slice(0, 7)}: ${why}; log ${result.log}\n${tail(result.log)}`);
      return { outcome: 'build_failed', report: failedBuildReport(elf) };
    }
    progress.status(sha, 'analysing');
    const report = await generateReport(args, io, this.worktree.path, elf, args.list('ld'));
    if (Object.keys(report.memory_layout).length === 0) {
      return { outcome: 'build_failed', report: failedBuildReport(elf) };
    }
    return { outcome: 'full', report };
  }

  identical(): Produced {
    return { outcome: 'identical', report: identicalReport(this.config.elf) };
  }

  /** Uploads one commit's report linked to `base`, and records it for resuming. */
  async upload(
    sha: string,
    base: string | null,
    produced: Produced,
    explicitNoParent = false,
  ): Promise<void> {
    const { repo, branch, repository, target, io, state } = this.config;
    const details = await commitDetails(repo, sha);
    const git: GitMetadata = {
      commit_hash: sha,
      base_commit_hash: base,
      branch_name: branch,
      repository,
      ...details,
      pr_number: null,
      pr_name: null,
      pr_author_name: null,
      pr_author_email: null,
      ...(explicitNoParent ? { parent_commit_hash: null } : {}),
    };
    const envelope = buildEnvelope({
      report: produced.report,
      git,
      targetName: target,
      identical: produced.outcome === 'identical',
      buildFailed: produced.outcome === 'build_failed',
    });
    this.config.progress.status(sha, 'uploading');
    let response;
    try {
      response = await postUpload({
        apiUrl: this.config.apiUrl,
        apiKey: this.config.apiKey,
        project: this.config.project,
        envelope,
        userAgent: userAgent(io.env),
        policy: this.config.policy,
        log: () => undefined,
      });
    } catch (error) {
      const reason = (error as Error).message.replace(/\s*\n\s*/g, ' — ');
      throw new RuntimeError(`upload of ${sha} failed, stopping (run again to resume): ${reason}`);
    }
    state.record(sha, produced.outcome);
    this.alerts += budgetsOf(response).length;
  }

  async close(): Promise<void> {
    if (this.worktree && !this.config.args.flag('keep-worktree')) {
      await this.worktree.remove().catch(() => undefined);
    }
  }
}

/** An error's message on one line: git's own last word (`fatal: …`) rather than its whole output. */
export function oneLine(error: unknown): string {
  const lines = String((error as Error).message ?? error)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.find((l) => /^(fatal|error):/.test(l));
  return fatal ?? lines[0] ?? 'unknown error';
}
