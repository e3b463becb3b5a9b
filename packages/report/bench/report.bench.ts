/**
 * Times generateReport on the generated benchmark firmware. Every run is a fresh child process, as
 * a CLI invocation would be, reporting the generateReport time, the process wall time and its peak
 * RSS (process.resourceUsage().maxRSS). Usage: node report.bench.js [cacheDir] [runs]
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateReport } from '../src/report/index.js';
import { ensureBenchFirmware } from './generate-firmware.js';

interface RunResult {
  reportMs: number;
  processMs: number;
  peakRssMb: number;
  symbols: number;
  withSource: number;
}

function once(elfPath: string, linkerScript: string): void {
  const start = performance.now();
  const report = generateReport({ elf: elfPath, linkerScripts: [linkerScript] });
  const reportMs = performance.now() - start;
  const result: Omit<RunResult, 'processMs'> = {
    reportMs,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    symbols: report.symbols.length,
    withSource: report.symbols.filter((s) => s.source_file !== '').length,
  };
  process.stdout.write(JSON.stringify(result));
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const [, script, first, second] = process.argv;
  if (first === '--once') return once(second!, process.argv[4]!);
  const { elfPath, linkerScript } = await ensureBenchFirmware(first ?? '.data/bench');
  const runs = Number(second ?? 7);
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const output = execFileSync(process.execPath, [script!, '--once', elfPath, linkerScript], {
      encoding: 'utf8',
    });
    results.push({
      ...(JSON.parse(output) as Omit<RunResult, 'processMs'>),
      processMs: performance.now() - start,
    });
  }
  const summary = {
    elf: elfPath,
    elfMb: statSync(elfPath).size / 1024 / 1024,
    symbols: results[0]!.symbols,
    withSource: results[0]!.withSource,
    runs,
    medianReportMs: median(results.map((r) => r.reportMs)),
    medianProcessMs: median(results.map((r) => r.processMs)),
    medianPeakRssMb: median(results.map((r) => r.peakRssMb)),
    maxPeakRssMb: Math.max(...results.map((r) => r.peakRssMb)),
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
