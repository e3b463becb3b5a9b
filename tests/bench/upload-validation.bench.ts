/**
 * `npm run bench:validation`: what checking one upload envelope costs the gateway, by the
 * hand-written validator it runs (services/gateway/src/upload/validate-upload.ts) and by the
 * `UploadEnvelope` schema of @memtrail/contracts (zod), on the same parsed JSON. Both run
 * alternately, after a warm-up, in this process; no services are needed.
 *
 * Environment: BENCH_SYMBOLS (40000), BENCH_RUNS (40 per validator).
 */
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { UploadEnvelope } from '@memtrail/contracts/schemas';
import { validateUpload } from '../../services/gateway/src/upload/validate-upload.js';
import { childEnvelope, percentile } from './support.js';

const symbolCount = Number(process.env.BENCH_SYMBOLS ?? 40_000);
const runs = Number(process.env.BENCH_RUNS ?? 40);

// Parsed from JSON text, as the gateway has it after reading a body.
const body: unknown = JSON.parse(JSON.stringify(childEnvelope(symbolCount)));

const validators: Record<string, () => void> = {
  'hand-written validateUpload': () => void validateUpload(body),
  'zod UploadEnvelope.safeParse': () => {
    const result = UploadEnvelope.safeParse(body);
    if (!result.success)
      throw new Error(`schema refused the bench upload: ${result.error.message}`);
  },
};

const times: Record<string, number[]> = Object.fromEntries(
  Object.keys(validators).map((name) => [name, []]),
);
for (let i = 0; i < 5; i++) for (const check of Object.values(validators)) check();
for (let i = 0; i < runs; i++) {
  for (const [name, check] of Object.entries(validators)) {
    const start = performance.now();
    check();
    times[name]!.push(performance.now() - start);
  }
}

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
);
console.log(
  `upload: ${symbolCount} symbols; ${runs} runs of each, alternating, after 5 warm-up runs`,
);
const [handWritten] = Object.keys(validators);
const median = (name: string) =>
  percentile(
    [...times[name]!].sort((a, b) => a - b),
    50,
  );
for (const name of Object.keys(validators)) {
  const sorted = [...times[name]!].sort((a, b) => a - b);
  console.log(
    `${name.padEnd(30)} p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms  ` +
      `(${(median(name) / median(handWritten!)).toFixed(1)} × hand-written)`,
  );
}
