import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import {
  BOARD_COMMITS,
  BUDGET_BREAKING_STEP,
  boardVariant,
  buildBoardFirmware,
} from '@memtrail/local-stack';

// Firmware that reproduces what real projects show the web app, compiled here with the cross
// compiler and uploaded by the memtrail CLI as CI would: the RTOS board of the demo seed
// (deploy/local/src/demo/board) — 24 regions, zero-length and overlapping ones among them, its
// main regions renamed half-way, link-time optimisation with its 0-byte markers, a function
// GCC clones for a while — built at a few commits of its history, each in another checkout
// folder; and a 40k-symbol image.

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cli = join(repoRoot, 'packages', 'cli', 'dist', 'bin.js');

/**
 * Board commits the lab history is made of: the port, the clone appearing, the regions renamed,
 * the budget broken and mended, the clone gone.
 */
export const LAB_STEPS = [0, 3, 4, 8, 9, BUDGET_BREAKING_STEP, BUDGET_BREAKING_STEP + 1, 13];

/** Symbols of the large image. */
export const LARGE_SYMBOLS = 40_000;

export interface LabCommit {
  sha: string;
  step: number;
  message: string;
  at: string;
  /** The build machine's checkout folder of this commit. */
  checkout: string;
  /** What `memtrail report --upload` printed. */
  output: string;
}

const sha = () => randomBytes(20).toString('hex');

/** Builds one commit of the board and uploads it with the CLI (answer printed, alerts allowed). */
async function upload(
  baseURL: string,
  apiKey: string,
  target: string,
  commit: Omit<LabCommit, 'output'>,
  parent: string | null,
  bulk = 0,
): Promise<LabCommit> {
  const build = await buildBoardFirmware({
    arch: 'cortex-m4',
    step: commit.step,
    dir: dirname(commit.checkout),
    checkout: commit.checkout.split('/').pop()!,
    lto: bulk === 0,
    bulk,
  });
  const { stdout } = await run(
    process.execPath,
    [
      cli,
      'report',
      build.elf,
      build.script,
      '--map-file',
      build.map,
      '--upload',
      '--dont-fail-on-alerts',
      '--target-name',
      target,
      '--api-url',
      baseURL,
      '--no-git',
      '--commit-sha',
      commit.sha,
      '--base-sha',
      parent ?? 'none',
      '--branch-name',
      'main',
      '--commit-message',
      commit.message,
      '--commit-timestamp',
      new Date(`${commit.at}T12:00:00Z`).toISOString(),
      '--author-name',
      'Lab Engineer',
    ],
    { env: { ...process.env, MEMTRAIL_API_KEY: apiKey }, maxBuffer: 64 * 1024 * 1024 },
  );
  return { ...commit, output: stdout };
}

/** The lab history of the board, oldest first, uploaded to `target`. */
export async function uploadLabHistory(
  baseURL: string,
  apiKey: string,
  target: string,
): Promise<LabCommit[]> {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-lab-'));
  const commits: LabCommit[] = [];
  for (const [index, step] of LAB_STEPS.entries()) {
    const { message, at } = BOARD_COMMITS[step]!;
    commits.push(
      await upload(
        baseURL,
        apiKey,
        target,
        // Each build in a checkout of its own, as CI runners' workspaces differ.
        { sha: sha(), step, message, at, checkout: join(dir, `runner-${index}`) },
        commits.at(-1)?.sha ?? null,
      ),
    );
  }
  return commits;
}

/** One commit of the board with 40k more symbols, uploaded to `target`. */
export async function uploadLargeImage(
  baseURL: string,
  apiKey: string,
  target: string,
): Promise<LabCommit> {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-large-'));
  const step = BOARD_COMMITS.length - 1;
  const { message, at } = BOARD_COMMITS[step]!;
  return upload(
    baseURL,
    apiKey,
    target,
    { sha: sha(), step, message, at, checkout: join(dir, 'runner') },
    null,
    LARGE_SYMBOLS,
  );
}

/** Waits (bounded) until every report of a target is ingested, read through the API. */
export async function waitUntilIngested(
  request: APIRequestContext,
  token: string,
  projectId: string,
  target: string,
  head: string,
  count: number,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await request.get(
          `/api/${projectId}/${encodeURIComponent(target)}/commits/${head}?count=500`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        if (!response.ok()) return -1;
        const body = (await response.json()) as { data: { commits: { status: string }[] } };
        return body.data.commits.filter((commit) => commit.status === 'ingested').length;
      },
      { timeout: 300_000, intervals: [1000] },
    )
    .toBe(count);
}

export { boardVariant };
