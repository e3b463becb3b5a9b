/**
 * `npm run bench:decode`: the CPU one upload costs a gateway decode thread, whole and step by
 * step, for a JSON envelope (what the MemBrowse CLI sends) and for the block form (what our CLI
 * sends). The whole is the gateway's own `decodeUpload`; the steps repeat its parts one by one
 * on the same body, so they show where the whole goes. One process, no services needed; the
 * body is a child commit of a synthetic build (bench support), gzip level 1 as the CLIs send.
 *
 * Environment: BENCH_SYMBOLS (10000), BENCH_RUNS (60 per row, after 10 warm-up runs).
 */
import { createHash } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  buildVersion,
  decodeBlockUpload,
  fullStoredForm,
  scanJsonUpload,
  storedForm,
} from '@memtrail/symbol-blocks';
import {
  decodeParsed,
  decodeUpload,
} from '../../services/gateway/src/upload/decode/decode-upload.js';
import { validateUpload } from '../../services/gateway/src/upload/validate-upload.js';
import { childEnvelope, percentile, uploadBody, type BodyEncoding } from './support.js';

const symbolCount = Number(process.env.BENCH_SYMBOLS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 60);
const WARM_UP = 10;

const envelope = childEnvelope(symbolCount);

/** Times each named step over `runs` runs (after a warm-up), steps interleaved per run. */
function timeSteps(steps: Record<string, () => unknown>): Record<string, number[]> {
  const times: Record<string, number[]> = Object.fromEntries(
    Object.keys(steps).map((name) => [name, []]),
  );
  for (let run = 0; run < WARM_UP + runs; run++) {
    for (const [name, step] of Object.entries(steps)) {
      const start = performance.now();
      step();
      if (run >= WARM_UP) times[name]!.push(performance.now() - start);
    }
  }
  return times;
}

const decode = (body: Buffer, encoding: BodyEncoding) => () =>
  decodeUpload(
    {
      chunks: [new Uint8Array(body)],
      encoding: encoding === 'identity' ? 'identity' : 'gzip',
      blockForm: encoding === 'blocks',
    },
    { maxBytes: 256 * 2 ** 20 },
  );

const json = uploadBody(envelope, 'gzip');
const text = gunzipSync(json);
const parsed = JSON.parse(text.toString('utf8')) as UploadEnvelope;
const scanned = scanJsonUpload(text)!;
/**
 * The same build as a CI machine reports it: absolute source paths under the checkout (the
 * synthetic build's are relative), so the build root is looked for among them.
 */
const checkout = {
  ...parsed.memory_analysis,
  symbols: parsed.memory_analysis.symbols.map((s) => ({
    ...s,
    source_file: s.source_file && `/home/runner/work/fw/fw/${s.source_file}`,
  })),
};
const blocks = uploadBody(envelope, 'blocks');
const blocksText = gunzipSync(blocks);

const rows: [string, Record<string, number[]>][] = [
  [
    `JSON envelope, ${(json.length / 1024).toFixed(0)} KiB gzip, ${(text.length / 2 ** 20).toFixed(1)} MiB`,
    timeSteps({
      'decodeUpload (whole)': decode(json, 'gzip'),
      '— sent uncompressed': decode(text, 'identity'),
      gunzip: () => gunzipSync(json),
      'SHA-256 of the document': () => createHash('sha256').update(text).digest('hex'),
      'read from the bytes (scanJsonUpload)': () => scanJsonUpload(text),
      'its stored form (fullStoredForm)': () => fullStoredForm(scanned.envelope, scanned.columns),
      'parsed whole instead (decodeParsed)': () => decodeParsed(text),
      'JSON.parse': () => JSON.parse(text.toString('utf8')),
      validation: () => validateUpload(parsed),
      'blocks and record (buildVersion)': () => buildVersion(parsed.memory_analysis),
      '— with absolute source paths': () => buildVersion(checkout),
      'stored form (split, header, record)': () => storedForm(parsed, 'full'),
    }),
  ],
  [
    `block form, ${(blocks.length / 1024).toFixed(0)} KiB gzip`,
    timeSteps({
      'decodeUpload (whole)': decode(blocks, 'blocks'),
      gunzip: () => gunzipSync(blocks),
      'read the parts': () => decodeBlockUpload(blocksText),
    }),
  ],
];

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
);
console.log(
  `upload: ${symbolCount} symbols; ${runs} runs of each step after ${WARM_UP} warm-up runs`,
);
for (const [label, times] of rows) {
  console.log(`\n${label}`);
  for (const [name, values] of Object.entries(times)) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(38)} p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(sorted, 95).toFixed(1).padStart(6)} ms`,
    );
  }
}
