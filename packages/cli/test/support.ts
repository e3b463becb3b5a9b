/** Test helpers: captured IO, a recording HTTP server, temporary git repositories. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { BLOCK_UPLOAD_TYPE, type MemoryReport, type UploadEnvelope } from '@memtrail/contracts';
import {
  decodeBlock,
  decodeBlockUpload,
  decodeRecord,
  envelopeFrom,
} from '@memtrail/symbol-blocks';
import type { CliIo } from '../src/context.js';
import { main } from '../src/main.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function sampleReport(): MemoryReport {
  return JSON.parse(
    readFileSync(join(FIXTURES, 'membrowse-sample-report.json'), 'utf8'),
  ) as MemoryReport;
}

/** Variables that would leak the CI the tests run in into git detection. */
const CI_VARIABLES = /^(GITHUB_|GITLAB_|CI_|MEMTRAIL_|MEMBROWSE_)|^CI$/;

export function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !CI_VARIABLES.test(k)),
  );
  return { ...env, MEMTRAIL_RETRY_DELAYS_MS: '5', ...extra };
}

export interface Captured {
  io: CliIo;
  stdout(): string;
  stderr(): string;
}

export function capture(
  cwd: string,
  env: Record<string, string | undefined> = cleanEnv(),
): Captured {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      env,
      cwd,
    },
    stdout: () => out,
    stderr: () => err,
  };
}

export async function run(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = cleanEnv(),
): Promise<{ code: number; stdout: string; stderr: string }> {
  const c = capture(cwd, env);
  const code = await main(argv, c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /**
   * The decoded body: gunzipped when Content-Encoding says so, parsed as JSON when it is JSON;
   * an upload in block form as the envelope it carries (symbols in address order).
   */
  json: unknown;
  /** How an upload was sent. */
  form: 'json' | 'blocks';
  rawLength: number;
}

export type Reply = (request: RecordedRequest, res: ServerResponse) => void;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** Destroys the socket without an answer: the client sees a connection reset. */
export const reset: Reply = (_req, res) => {
  res.socket?.destroy();
};

/**
 * A report with its symbols in address order (then section and name): an upload in block form
 * carries them in that order, whatever order the report listed them in.
 */
export function inAddressOrder(report: MemoryReport): MemoryReport {
  const symbols = [...report.symbols].sort(
    (a, b) =>
      a.address - b.address ||
      (a.section ?? '').localeCompare(b.section ?? '') ||
      a.name.localeCompare(b.name),
  );
  return { ...report, symbols };
}

/** The envelope an upload in block form carries, its symbols rebuilt from record and blocks. */
function envelopeOf(body: Buffer): UploadEnvelope {
  const form = decodeBlockUpload(body);
  const blocks = new Map(
    form.blocks.map((b) => [Buffer.from(b.hash).toString('hex'), decodeBlock(b.data)]),
  );
  return envelopeFrom(form.header as UploadEnvelope, decodeRecord(form.record), (hash) =>
    blocks.get(hash)!,
  );
}

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on a free port. `replies` are used in order, the last one repeating;
 * a function reply decides per request.
 */
export async function recordingServer(
  replies: Reply[] | ((r: RecordedRequest) => Reply),
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      const form = req.headers['content-type'] === BLOCK_UPLOAD_TYPE ? 'blocks' : 'json';
      let parsed: unknown = undefined;
      try {
        if (form === 'blocks') parsed = envelopeOf(body);
        else parsed = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        parsed = body.toString('utf8');
      }
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        json: parsed,
        form,
        rawLength: raw.length,
      } as const;
      requests.push(recorded);
      const reply =
        typeof replies === 'function'
          ? replies(recorded)
          : replies[Math.min(requests.length - 1, replies.length - 1)]!;
      reply(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function successBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    success: true,
    message: 'Report uploaded',
    data: {
      comparison_url: 'http://example.test/compare?base=a&head=b',
      is_overwritten: false,
      changes_summary: {
        FLASH: { used_change: 13, free_change: -13 },
        RAM: { used_change: 0, free_change: 0 },
      },
      changes: {
        regions: { modified: [] },
        sections: { modified: [] },
        symbols: { added: [], removed: [], modified: [], moved: [] },
      },
      alerts: { budgets: [] },
      ...overrides,
    },
  };
}

export function tempDir(prefix = 'memtrail-cli-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ada Tester',
      GIT_AUTHOR_EMAIL: 'ada@example.test',
      GIT_COMMITTER_NAME: 'Ada Tester',
      GIT_COMMITTER_EMAIL: 'ada@example.test',
    },
  }).trim();
}

/** A repository with `main` checked out; `commit` writes files and commits them. */
export function makeRepo(dir: string): {
  commit(message: string, files: Record<string, string>): string;
} {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Ada Tester');
  git(dir, 'config', 'user.email', 'ada@example.test');
  git(dir, 'config', 'commit.gpgsign', 'false');
  return {
    commit(message, files) {
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), content);
      }
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', message);
      return git(dir, 'rev-parse', 'HEAD');
    },
  };
}
