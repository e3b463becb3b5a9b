/**
 * Pieces shared by the benchmarks that upload to the running stack: a project with an API key
 * created straight in Postgres, and synthetic builds whose symbols drift a little per commit.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BLOCK_UPLOAD_TYPE,
  type MemoryReport,
  type ReportSymbol,
  type UploadEnvelope,
} from '@memtrail/contracts';
import type { PrismaClient } from '@memtrail/db';
import { encodeBlockUpload } from '@memtrail/symbol-blocks';
import { projectData } from '@memtrail/testing';
import { issueApiKey } from '../../services/gateway/src/api-keys/api-key.service.js';

export async function benchProject(
  prisma: PrismaClient,
  label: string,
): Promise<{ projectId: string; apiKey: string }> {
  const stamp = Date.now();
  const user = await prisma.user.create({ data: { email: `${label}-${stamp}@example.com` } });
  const project = await prisma.project.create({ data: projectData(`${label} ${stamp}`, user.id) });
  return {
    projectId: project.id,
    apiKey: (await issueApiKey(prisma, { projectId: project.id })).key,
  };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function baseSymbols(symbolCount: number): ReportSymbol[] {
  return Array.from({ length: symbolCount }, (_, i) => ({
    name: `module_${i % 97}_fn_${i}`,
    address: 0x0800_0000 + i * 32,
    size: 8 + (i % 200),
    type: i % 5 === 0 ? 'OBJECT' : 'FUNC',
    binding: 'GLOBAL',
    section: i % 5 === 0 ? '.data' : '.text',
    source_file: `src/module_${i % 97}/file_${i % 13}.c`,
    source_line: (i * 7) % 900,
    visibility: 'DEFAULT',
    archive: '',
    object_file: `file_${i % 13}.o`,
  }));
}

/** One child commit of a synthetic build of `symbolCount` symbols, as a CLI uploads it. */
export function childEnvelope(symbolCount: number): UploadEnvelope {
  return {
    metadata: {
      target_name: 'bench-board',
      analysis_version: '1.0.0',
      git: {
        commit_hash: 'a'.repeat(40),
        base_commit_hash: 'b'.repeat(40),
        branch_name: 'main',
        commit_message: 'Bench commit',
        commit_timestamp: '2026-11-27T00:00:00Z',
        author_name: 'Bench',
        author_email: 'bench@example.com',
      },
    },
    memory_analysis: report(baseSymbols(symbolCount), 1),
  };
}

/** One build: a few symbols change size from commit to commit, as in most real commits. */
export function report(symbols: ReportSymbol[], step: number): MemoryReport {
  for (let k = 0; k < 20; k++) symbols[(step * 37 + k * 101) % symbols.length]!.size += 4;
  const text = symbols.filter((s) => s.section === '.text').reduce((n, s) => n + s.size, 0);
  const data = symbols.filter((s) => s.section === '.data').reduce((n, s) => n + s.size, 0);
  const region = (
    address: number,
    limit: number,
    used: number,
    sections: { name: string; size: number }[],
  ) => ({
    address,
    limit_size: limit,
    type: 'UNKNOWN',
    used_size: used,
    free_size: limit - used,
    utilization_percent: (used / limit) * 100,
    sections: sections.map((s) => ({ ...s, address, type: 'code', end_address: address + s.size })),
  });
  return {
    file_path: 'fw.elf',
    architecture: 'ARM',
    toolchain: 'gcc-12.2.1',
    entry_point: 0x0800_0000,
    file_type: 'ET_EXEC',
    machine: 'EM_ARM',
    symbols,
    program_headers: [],
    memory_layout: {
      FLASH: region(0x0800_0000, 2 * 1024 * 1024, text + data, [
        { name: '.text', size: text },
        { name: '.data', size: data },
      ]),
      RAM: region(0x2000_0000, 256 * 1024, data, [{ name: '.data', size: data }]),
    },
  };
}

/** A service's Prometheus metrics, as text. */
async function metricsText(metricsUrl: string): Promise<string> {
  const response = await fetch(metricsUrl);
  if (!response.ok) throw new Error(`${metricsUrl} answered ${response.status}`);
  return response.text();
}

/**
 * CPU seconds a stack service has used so far, from its Prometheus side port — a figure that,
 * unlike latency, does not depend on what else the machine is running.
 */
export async function serviceCpuSeconds(metricsUrl: string): Promise<number> {
  const line = (await metricsText(metricsUrl))
    .split('\n')
    .find((l) => /^memtrail_process_cpu_seconds_total[ {]/.test(l));
  if (!line) throw new Error(`${metricsUrl} has no memtrail_process_cpu_seconds_total`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Seconds and uploads timed so far in each step of the gateway's upload path, by step. */
export async function uploadPhaseTotals(
  metricsUrl: string,
): Promise<Map<string, { seconds: number; count: number }>> {
  const totals = new Map<string, { seconds: number; count: number }>();
  for (const line of (await metricsText(metricsUrl)).split('\n')) {
    const match = /^memtrail_upload_phase_seconds_(sum|count)\{.*phase="(\w+)".*\} (\S+)$/.exec(
      line,
    );
    if (!match) continue;
    const [, kind, phase, value] = match;
    const total = totals.get(phase!) ?? { seconds: 0, count: 0 };
    if (kind === 'sum') total.seconds = Number(value);
    else total.count = Number(value);
    totals.set(phase!, total);
  }
  return totals;
}

/** Mean milliseconds per upload of each step between two `uploadPhaseTotals` readings. */
export function meanPhaseMs(
  before: Map<string, { seconds: number; count: number }>,
  after: Map<string, { seconds: number; count: number }>,
): Record<string, number> {
  return Object.fromEntries(
    [...after].map(([phase, { seconds, count }]) => {
      const earlier = before.get(phase) ?? { seconds: 0, count: 0 };
      const n = count - earlier.count;
      return [phase, n > 0 ? +(((seconds - earlier.seconds) * 1000) / n).toFixed(1) : 0];
    }),
  );
}

/**
 * Waits until ClickHouse runs no background merge (at most `timeoutMs`), so one run's merges —
 * a core's worth of CPU for a while after a large ingestion — do not land in the next run's
 * measurements on a small machine.
 */
export async function waitForMergesToSettle(clickhouseUrl: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const url = new URL(clickhouseUrl);
    url.searchParams.set('query', 'SELECT count() FROM system.merges');
    const response = await fetch(url);
    if (!response.ok)
      throw new Error(`ClickHouse answered ${response.status}: ${await response.text()}`);
    const running = Number((await response.text()).trim());
    if (running === 0) return;
    if (Date.now() > deadline) {
      console.warn(`ClickHouse still merges after ${timeoutMs / 1000} s; measuring anyway`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * CPU milliseconds process `pid` has used (user + system), NaN when no pid is known. For the
 * embedded ClickHouse, which has no metrics port of its own.
 */
export function processCpuMs(pid: string | undefined): number {
  return pid ? statCpuMs(`/proc/${pid}/stat`) : NaN;
}

/** CPU milliseconds (user + system) in a `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat`. */
export function statCpuMs(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the stat line, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * A process of the local stack, when it runs one (from the repository root): its pid file,
 * checked against the process's command line, since a process restarted by hand leaves the
 * file behind.
 */
export function stackPid(service: 'clickhouse' | 'gateway'): string | undefined {
  const file = join(process.cwd(), '.data', 'run', `${service}.pid`);
  if (!existsSync(file)) return undefined;
  const pid = readFileSync(file, 'utf8').trim();
  const command = `/proc/${pid}/cmdline`;
  return existsSync(command) && readFileSync(command, 'utf8').includes(service) ? pid : undefined;
}

/** CPU milliseconds each thread of process `pid` has used, by thread id (none: empty). */
export function threadCpuMs(pid: string | undefined): Map<string, number> {
  const tasks = `/proc/${pid}/task`;
  const threads = new Map<string, number>();
  if (!pid || !existsSync(tasks)) return threads;
  for (const tid of readdirSync(tasks)) {
    try {
      threads.set(tid, statCpuMs(`${tasks}/${tid}/stat`));
    } catch {
      // The thread ended between the listing and the read: it has nothing more to count.
    }
  }
  return threads;
}

/**
 * A process's CPU between two `threadCpuMs` readings, per `count` (uploads): its main thread
 * (the event loop), its busiest other thread (the gateway's first decode thread, which takes
 * most uploads) and all the others (the second decode thread, V8's collector threads).
 */
export function threadSplit(
  pid: string,
  before: Map<string, number>,
  after: Map<string, number>,
  count: number,
): { event_loop: number; busiest_other_thread: number; other_threads: number } {
  const used = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  const others = used.filter((t) => t.tid !== pid).sort((a, b) => b.ms - a.ms);
  const per = (ms: number) => +(ms / count).toFixed(1);
  return {
    event_loop: per(used.find((t) => t.tid === pid)?.ms ?? 0),
    busiest_other_thread: per(others[0]?.ms ?? 0),
    other_threads: per(others.slice(1).reduce((sum, t) => sum + t.ms, 0)),
  };
}

/** How an upload body is sent: gzip of the block form (our CLI), gzip or plain JSON. */
export type BodyEncoding = 'gzip' | 'identity' | 'blocks';

/** The body of one upload in `encoding`. */
export function uploadBody(envelope: UploadEnvelope, encoding: BodyEncoding): Buffer {
  if (encoding === 'blocks') return gzipSync(encodeBlockUpload(envelope), { level: 1 });
  const json = Buffer.from(JSON.stringify(envelope));
  return encoding === 'gzip' ? gzipSync(json, { level: 1 }) : json;
}

/** Connections kept open between a runner's uploads, as a CI client's would be. */
const agent = new Agent({ keepAlive: true });

/**
 * POSTs one upload body to the gateway with a project API key, written to the socket in one
 * call, as a CLI writes it. Not `fetch`: in one process with 32 runners, its request stream
 * added 4 ms to the median and 20 ms to the p99 of sending a 2.2 MiB plain JSON body to a
 * server that only reads it (docs/benchmarks.md), which the gateway would be charged for.
 */
export function postUpload(
  gateway: string,
  apiKey: string,
  body: Uint8Array,
  encoding: BodyEncoding = 'gzip',
): Promise<Response> {
  const attempt = (retried: boolean): Promise<Response> =>
    new Promise((resolve, reject) => {
      const sent = request(
        `${gateway}/upload`,
        {
          method: 'POST',
          agent,
          headers: {
            Authorization: `Bearer ${apiKey}`,
            'Content-Type': encoding === 'blocks' ? BLOCK_UPLOAD_TYPE : 'application/json',
            'Content-Length': body.byteLength,
            ...(encoding === 'identity' ? {} : { 'Content-Encoding': 'gzip' }),
          },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.once('error', reject);
          answer.once('end', () =>
            resolve(
              new Response(chunks.length ? Buffer.concat(chunks) : null, {
                status: answer.statusCode,
              }),
            ),
          );
        },
      );
      sent.once('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the gateway closed as idle just as this upload reused it:
        // the upload was never read, so it is sent again on a new connection, once.
        if (sent.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(attempt(true));
        else reject(error);
      });
      sent.end(body);
    });
  return attempt(false);
}
