/**
 * Times demangling and report diffing at the 40k-symbol scale of the performance targets.
 * Usage: node diff.bench.js [cacheDir] [runs]
 *
 * - Demangling: 40k mangled names, all of them C++ or Rust (a worst case: real firmware is mostly
 *   C), taken from the test corpora: the C++ fixture files compiled with arm-none-eabi-g++, the
 *   hand-picked Itanium names and the Rust symbol fixtures, repeated.
 * - Diff: the report of the generated benchmark firmware (see generate-firmware.ts) against a
 *   copy with deterministic edits: 2% of symbols grown, 1% removed, 1% added, 1% re-suffixed
 *   clones (`.constprop.N`), 0.5% moved to another section; then the upload `changes`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MemoryReport, ReportSymbol } from '@memtrail/contracts';
import { demangle } from '../src/demangle/index.js';
import { diffReports, toUploadChanges } from '../src/diff/index.js';
import { generateReport } from '../src/report/index.js';
import { ensureBenchFirmware } from './generate-firmware.js';

// Runs compiled from packages/report/dist/bench-build/bench/.
const fixtures = resolve(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'demangle');

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function time(runs: number, fn: () => void): number {
  for (let w = 0; w < 3; w++) fn();
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function corpusNames(): string[] {
  const work = mkdtempSync(join(tmpdir(), 'memtrail-bench-'));
  try {
    const names: string[] = [];
    for (const [file, std] of [
      ['corpus.cpp', 'gnu++17'],
      ['exotic.cpp', 'gnu++20'],
    ] as const) {
      const object = join(work, `${file}.o`);
      execFileSync('arm-none-eabi-g++', [
        '-w',
        `-std=${std}`,
        '-O2',
        '-c',
        join(fixtures, file),
        '-o',
        object,
      ]);
      names.push(
        ...execFileSync('arm-none-eabi-nm', [object])
          .toString()
          .split('\n')
          .map((l) => l.split(' ').pop() ?? ''),
      );
    }
    names.push(...readFileSync(join(fixtures, 'itanium-tricky.txt'), 'utf8').split('\n'));
    for (const file of ['corpus.tsv', 'rustc.tsv']) {
      names.push(
        ...readFileSync(join(fixtures, 'rust', file), 'utf8')
          .split('\n')
          .map((l) => l.split('\t')[0]!),
      );
    }
    return names.filter((n) => n.startsWith('_Z') || n.startsWith('_R'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function edited(report: MemoryReport): MemoryReport {
  const symbols: ReportSymbol[] = [];
  report.symbols.forEach((s, i) => {
    if (i % 100 === 1) return;
    if (i % 50 === 2) symbols.push({ ...s, size: s.size + 16 });
    else if (i % 100 === 3) symbols.push({ ...s, name: `${s.name}.constprop.${i % 3}` });
    else if (i % 200 === 4)
      symbols.push({ ...s, section: s.section === '.bss' ? '.data' : '.bss' });
    else symbols.push(s);
    if (i % 100 === 5) symbols.push({ ...s, name: `${s.name}_added`, address: s.address + 2 });
  });
  return { ...report, symbols };
}

async function main(): Promise<void> {
  const [, , cacheDir, runsArg] = process.argv;
  const runs = Number(runsArg ?? 15);
  const base = corpusNames();
  const names: string[] = [];
  while (names.length < 40_000) names.push(...base);
  const demangleMs = time(runs, () => {
    for (const name of names) demangle(name);
  });

  const { elfPath, linkerScript } = await ensureBenchFirmware(cacheDir ?? '.data/bench');
  const before = generateReport({ elf: elfPath, linkerScripts: [linkerScript] });
  const after = edited(before);
  const diff = diffReports(before, after);
  const diffMs = time(runs, () => diffReports(before, after));
  const withChangesMs = time(runs, () => toUploadChanges(diffReports(before, after)));
  const summary = {
    runs,
    demangle: {
      names: names.length,
      distinct: new Set(names).size,
      averageLength: Math.round(names.reduce((sum, n) => sum + n.length, 0) / names.length),
      medianMs: demangleMs,
    },
    diff: {
      oldSymbols: before.symbols.length,
      newSymbols: after.symbols.length,
      changedRows: diff.symbols.length,
      medianMs: diffMs,
      medianWithUploadChangesMs: withChangesMs,
    },
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}

await main();
