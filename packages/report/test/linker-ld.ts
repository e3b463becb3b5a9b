import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Ground truth from the real GNU linker: link an empty object with the given command line. */
export interface LdRegion {
  name: string;
  origin: number;
  length: number;
  attributes: string;
}

export interface LdResult {
  ok: boolean;
  stderr: string;
  regions: LdRegion[];
  /** Symbols of the linked ELF, from nm. */
  symbols: Map<string, number>;
}

let emptyObject: string | undefined;

function emptyObjectFile(): string {
  if (!emptyObject) {
    const dir = mkdtempSync(join(tmpdir(), 'memtrail-ld-'));
    writeFileSync(join(dir, 'empty.s'), '');
    execFileSync('arm-none-eabi-as', [join(dir, 'empty.s'), '-o', join(dir, 'empty.o')]);
    emptyObject = join(dir, 'empty.o');
  }
  return emptyObject;
}

export function linkWithLd(args: string[], cwd: string): LdResult {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-ld-'));
  const elf = join(dir, 'out.elf');
  const map = join(dir, 'out.map');
  const run = spawnSync(
    'arm-none-eabi-ld',
    ['-o', elf, emptyObjectFile(), ...args, `-Map=${map}`],
    { cwd, encoding: 'utf8' },
  );
  if (run.status !== 0) return { ok: false, stderr: run.stderr, regions: [], symbols: new Map() };
  return {
    ok: true,
    stderr: run.stderr,
    regions: parseMemoryConfiguration(readFileSync(map, 'utf8')),
    symbols: nmSymbols(elf),
  };
}

/** The "Memory Configuration" table of an ld map file (without ld's own `*default*` row). */
export function parseMemoryConfiguration(map: string): LdRegion[] {
  const start = map.indexOf('Memory Configuration');
  const end = map.indexOf('Linker script and memory map');
  if (start < 0 || end < 0) throw new Error('map file has no Memory Configuration table');
  const lines = map.slice(start, end).split('\n').slice(1);
  const regions: LdRegion[] = [];
  let pendingName: string | undefined;
  for (const line of lines) {
    if (line.startsWith('Name') || line.trim() === '') continue;
    const fields = line.trim().split(/\s+/);
    // ld puts names longer than its column on a line of their own.
    if (fields.length === 1) {
      pendingName = fields[0];
      continue;
    }
    const [name, origin, length, attributes] = pendingName ? [pendingName, ...fields] : fields;
    pendingName = undefined;
    if (name === '*default*') continue;
    regions.push({
      name: name!,
      origin: Number(BigInt(origin!)),
      length: Number(BigInt(length!)),
      attributes: attributes ?? '',
    });
  }
  return regions;
}

const UNIT = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;

/** Region → used size and length, from the table `ld --print-memory-usage` prints on stdout. */
export function parseMemoryUsage(stdout: string): Map<string, { used: number; length: number }> {
  const usage = new Map<string, { used: number; length: number }>();
  for (const line of stdout.split('\n')) {
    const match = /^\s*(\S+):\s+(\d+) (B|KB|MB|GB)\s+(\d+) (B|KB|MB|GB)/.exec(line);
    if (!match) continue;
    const size = (value: string, unit: string) => Number(value) * UNIT[unit as keyof typeof UNIT];
    usage.set(match[1]!, { used: size(match[2]!, match[3]!), length: size(match[4]!, match[5]!) });
  }
  if (!stdout.includes('Memory region'))
    throw new Error('no --print-memory-usage table in the output');
  return usage;
}

function nmSymbols(elf: string): Map<string, number> {
  const out = execFileSync('arm-none-eabi-nm', ['-a', elf], { encoding: 'utf8' });
  const symbols = new Map<string, number>();
  for (const line of out.split('\n')) {
    const match = /^([0-9a-f]+) \S (.+)$/.exec(line);
    if (match) symbols.set(match[2]!, Number.parseInt(match[1]!, 16));
  }
  return symbols;
}
