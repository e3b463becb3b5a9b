/**
 * `npm run bench:abuse`: what a flood of hostile or careless clients costs the running gateway
 * (`npm run up`). Three phases, each with a client polling `/healthz` beside it:
 *
 * 1. flood: BENCH_FLOOD (200) uploads of a BENCH_SYMBOLS (40000)-symbol report as plain JSON
 *    (about 9.4 MB each) at once, over BENCH_KEYS (4) API keys; refused ones retry after
 *    `Retry-After`, as the CLIs do, up to 8 attempts;
 * 2. bad keys: BENCH_BAD_KEY (20) uploads of 60 MB bodies with an invalid key at once;
 * 3. slow clients: BENCH_SLOW (100) connections sending their headers, and as many sending a
 *    body with a valid key, one byte every 5 s.
 *
 * It reports, per phase, the gateway's peak resident memory (sampled every 100 ms from
 * /proc/<pid>/status), the answers, and the p99 of the concurrent `/healthz`.
 *
 * Environment: GATEWAY_URL (default http://127.0.0.1:$PORT or 5000), GATEWAY_PID (default: the
 * local stack's .data/run/gateway.pid), DATABASE_URL (the stack's), BENCH_FLOOD, BENCH_SYMBOLS,
 * BENCH_KEYS, BENCH_BAD_KEY, BENCH_SLOW, BENCH_SLOW_LIMIT_S (90: a slow connection still open
 * then counts as never closed). Run it with the ingest worker stopped, or it ingests the flood.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpus, totalmem } from 'node:os';
import { createPrismaClient } from '@memtrail/db';
import { readStackEnv } from '@memtrail/local-stack';
import { baseSymbols, benchProject, percentile, report } from './support.js';

const env = { ...readStackEnv(), ...process.env };
const gateway = env.GATEWAY_URL ?? `http://127.0.0.1:${env.PORT ?? 5000}`;
const floodSize = Number(env.BENCH_FLOOD ?? 200);
const symbolCount = Number(env.BENCH_SYMBOLS ?? 40_000);
const keyCount = Number(env.BENCH_KEYS ?? 4);
const badKeyCount = Number(env.BENCH_BAD_KEY ?? 20);
const slowCount = Number(env.BENCH_SLOW ?? 100);
const slowLimitS = Number(env.BENCH_SLOW_LIMIT_S ?? 90);
const gatewayPid = Number(
  env.GATEWAY_PID ??
    readFileSync(join(env.MEMTRAIL_DATA_DIR ?? '.data', 'run', 'gateway.pid'), 'utf8'),
);
if (!env.DATABASE_URL) throw new Error('DATABASE_URL is not set and no local stack env was found');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
// Keep-alive, as both CLIs: a server that answers before the body is sent (a bad key, no room)
// then discards the rest instead of closing the connection on a client still sending.
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** Resident memory of the gateway process, from the kernel. */
function gatewayRss(): number {
  const line = readFileSync(`/proc/${gatewayPid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) * 1024;
}

/** While `work` runs: the gateway's peak RSS and the latencies of a client polling /healthz. */
async function observe<T>(work: () => Promise<T>) {
  let running = true;
  let peak = gatewayRss();
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, gatewayRss());
      await sleep(100);
    }
  })();
  const health: number[] = [];
  let healthFailures = 0;
  const poller = (async () => {
    while (running) {
      const start = performance.now();
      try {
        const response = await fetch(`${gateway}/healthz`, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        if (!response.ok) healthFailures++;
      } catch {
        healthFailures++;
      }
      health.push(performance.now() - start);
      await sleep(50);
    }
  })();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await Promise.all([sampler, poller]);
  health.sort((a, b) => a - b);
  return {
    result,
    seconds: Math.round(seconds),
    peakRssMb: mb(peak),
    healthz: {
      n: health.length,
      p50: Math.round(percentile(health, 50)),
      p99: Math.round(percentile(health, 99)),
      max: Math.round(health[health.length - 1] ?? 0),
      failed: healthFailures,
    },
  };
}

interface Answer {
  status: number;
  retryAfterS?: number;
}

/**
 * One POST /upload whose body is `parts` written one after the other (shared buffers are sent
 * without copies, so the client holds one report however many uploads are in flight). Stops
 * sending as soon as the server answers.
 */
function send(apiKey: string, parts: Buffer[]): Promise<Answer> {
  const length = parts.reduce((n, p) => n + p.length, 0);
  return new Promise((resolve) => {
    const req = request(`${gateway}/upload`, {
      method: 'POST',
      agent,
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'content-length': length,
      },
    });
    req.on('response', (response) => {
      response.resume();
      const retryAfter = Number(response.headers['retry-after']);
      resolve({
        status: response.statusCode ?? 0,
        ...(retryAfter > 0 ? { retryAfterS: retryAfter } : {}),
      });
      req.destroy();
    });
    req.on('error', () => resolve({ status: 0 }));
    const write = (i: number) => {
      if (i === parts.length) return req.end();
      if (req.write(parts[i]!)) write(i + 1);
      else req.once('drain', () => write(i + 1));
    };
    write(0);
  });
}

const tally = (answers: (number | string)[]) =>
  answers.reduce<Record<string, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

async function flood(keys: string[]) {
  const symbols = baseSymbols(symbolCount);
  const { memory_layout, ...rest } = report(symbols, 0);
  // Every upload shares the symbol text; only its commit differs.
  const shared = Buffer.from(JSON.stringify(rest.symbols).slice(1, -1));
  const suffix = Buffer.from(']}}');
  const stamp = Date.now().toString(16);
  const firstAnswers: number[] = [];
  const finalAnswers: number[] = [];
  let attempts = 0;
  await Promise.all(
    Array.from({ length: floodSize }, async (_, i) => {
      const metadata = {
        git: { commit_hash: `${stamp}${i.toString(16).padStart(6, '0')}`.padEnd(40, '0') },
        target_name: `abuse-${i % 8}`,
      };
      const prefix = Buffer.from(
        `{"metadata":${JSON.stringify(metadata)},"memory_analysis":{"memory_layout":${JSON.stringify(memory_layout)},"symbols":[`,
      );
      let answer: Answer = { status: 0 };
      for (let attempt = 0; attempt < 8; attempt++) {
        attempts++;
        answer = await send(keys[i % keys.length]!, [prefix, shared, suffix]);
        if (attempt === 0) firstAnswers.push(answer.status);
        if (answer.status !== 429 && answer.status !== 503) break;
        await sleep((answer.retryAfterS ?? 5) * 1000 * (1 + Math.random() / 2));
      }
      finalAnswers.push(answer.status);
    }),
  );
  return {
    bodyMb: +((shared.length + 200) / 1e6).toFixed(1),
    firstAnswers: tally(firstAnswers),
    finalAnswers: tally(finalAnswers),
    attempts,
  };
}

async function badKeys() {
  const body = Buffer.alloc(60 * 1024 * 1024, 32);
  const started = performance.now();
  const answered: number[] = [];
  const answers = await Promise.all(
    Array.from({ length: badKeyCount }, async () => {
      const answer = await send('mt_0000000000000000_not-a-real-key', [body]);
      answered.push(performance.now() - started);
      return answer.status;
    }),
  );
  answered.sort((a, b) => a - b);
  return { answers: tally(answers), lastAnswerMs: Math.round(answered[answered.length - 1]!) };
}

/** A connection sending `head` and then one byte every 5 s; resolves with how long it lived. */
function trickle(head: string, rest: string): Promise<{ seconds: number; answer: string }> {
  return new Promise((resolve) => {
    const url = new URL(gateway);
    const socket = connect(Number(url.port), url.hostname);
    const started = performance.now();
    let answer = '';
    let sent = 0;
    socket.write(head);
    const timer = setInterval(() => {
      if (!socket.destroyed && sent < rest.length) socket.write(rest[sent++]!);
    }, 5000);
    const limit = setTimeout(() => socket.destroy(), slowLimitS * 1000);
    socket.on('data', (chunk) => (answer ||= chunk.toString().split('\r\n')[0]!));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearInterval(timer);
      clearTimeout(limit);
      resolve({ seconds: (performance.now() - started) / 1000, answer: answer || 'none' });
    });
  });
}

async function slowClients(apiKey: string) {
  const headers = Array.from({ length: slowCount }, () =>
    trickle('POST /upload HTTP/1.1\r\n', `Host: x\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`),
  );
  const bodies = Array.from({ length: slowCount }, () =>
    trickle(
      `POST /upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n',
      '{'.repeat(1000),
    ),
  );
  const summary = (lives: { seconds: number; answer: string }[]) => {
    const seconds = lives.map((l) => l.seconds).sort((a, b) => a - b);
    return {
      longestS: Math.round(seconds[seconds.length - 1]!),
      stillOpenAtLimit: seconds.filter((s) => s >= slowLimitS - 1).length,
      answers: tally(lives.map((l) => l.answer)),
    };
  };
  return {
    slowHeaders: summary(await Promise.all(headers)),
    slowBodies: summary(await Promise.all(bodies)),
  };
}

async function main(): Promise<void> {
  const prisma = createPrismaClient(env.DATABASE_URL!);
  const keys: string[] = [];
  for (let k = 0; k < keyCount; k++)
    keys.push((await benchProject(prisma, `bench-abuse-${k}`)).apiKey);
  await prisma.$disconnect();

  const baselineMb = mb(gatewayRss());
  console.log(`gateway pid ${gatewayPid} at ${gateway}: ${baselineMb} MB resident`);
  const phases: Record<string, unknown> = {};
  phases.flood = await observe(() => flood(keys));
  console.log('flood', JSON.stringify(phases.flood));
  await sleep(5000);
  phases.afterFloodRssMb = mb(gatewayRss());
  phases.badKeys = await observe(badKeys);
  console.log('bad keys', JSON.stringify(phases.badKeys));
  phases.slow = await observe(() => slowClients(keys[0]!));
  console.log('slow clients', JSON.stringify(phases.slow));
  await sleep(5000);
  phases.endRssMb = mb(gatewayRss());
  console.log(
    JSON.stringify(
      {
        bench: 'abuse',
        date: new Date().toISOString(),
        machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${mb(totalmem())} MB`,
        node: process.version,
        floodSize,
        symbolCount,
        keyCount,
        baselineRssMb: baselineMb,
        ...phases,
      },
      null,
      2,
    ),
  );
  agent.destroy();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
