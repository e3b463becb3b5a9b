// Synthetic but self-consistent firmware histories for the web tests and the dashboard
// benchmark: symbols in sections in regions, laid out by address, whose sizes drift commit by
// commit the way a real project's do (steady growth, the odd new module, occasional cleanups).
import { createHash } from 'node:crypto';
import { seededRandom } from '@memtrail/testing/random';

interface SymbolSeed {
  name: string;
  file: string;
  section: '.text' | '.rodata' | '.data' | '.bss';
  type: 'FUNC' | 'OBJECT';
  size: number;
  /** Commit index from which the symbol exists. */
  from: number;
  /** Commit index from which it is gone (exclusive); Infinity when it stays. */
  until: number;
}

const FILES = [
  'src/app/main.c',
  'src/app/scheduler.c',
  'src/app/config.c',
  'src/drivers/uart.c',
  'src/drivers/spi.c',
  'src/drivers/i2c.c',
  'src/drivers/adc.c',
  'src/drivers/flash.c',
  'src/net/mqtt.c',
  'src/net/tls.c',
  'src/net/dhcp.c',
  'src/sensors/bme280.c',
  'src/sensors/imu.c',
  'lib/hal/stm32_hal_gpio.c',
  'lib/hal/stm32_hal_rcc.c',
  'lib/hal/stm32_hal_dma.c',
  'lib/rtos/tasks.c',
  'lib/rtos/queue.c',
];

const VERBS = ['init', 'read', 'write', 'poll', 'handle_irq', 'configure', 'process', 'flush'];

const HISTORY_SEED = 7;

function seeds(commits: number, rand: () => number): SymbolSeed[] {
  const list: SymbolSeed[] = [];
  for (const file of FILES) {
    const module = file.split('/').pop()!.replace('.c', '');
    for (const verb of VERBS) {
      list.push({
        name: `${module}_${verb}`,
        file,
        section: '.text',
        type: 'FUNC',
        size: 40 + Math.floor(rand() * 900),
        from: rand() < 0.85 ? 0 : Math.floor(rand() * commits),
        until: rand() < 0.05 ? Math.floor(rand() * commits) + 1 : Infinity,
      });
    }
    list.push(
      {
        name: `${module}_table`,
        file,
        section: '.rodata',
        type: 'OBJECT',
        size: 16 + Math.floor(rand() * 600),
        from: 0,
        until: Infinity,
      },
      {
        name: `${module}_state`,
        file,
        section: '.bss',
        type: 'OBJECT',
        size: 8 + Math.floor(rand() * 400),
        from: 0,
        until: Infinity,
      },
      {
        name: `${module}_defaults`,
        file,
        section: '.data',
        type: 'OBJECT',
        size: 4 + Math.floor(rand() * 64),
        from: 0,
        until: Infinity,
      },
    );
  }
  list.push({
    name: 'ucHeap',
    file: 'lib/rtos/heap_4.c',
    section: '.bss',
    type: 'OBJECT',
    size: 16384,
    from: 0,
    until: Infinity,
  });
  list.push({
    name: 'tls_session_cache',
    file: 'src/net/tls.c',
    section: '.bss',
    type: 'OBJECT',
    size: 4096,
    from: Math.floor(commits * 0.6),
    until: Infinity,
  });
  return list;
}

const REGIONS = {
  FLASH: { address: 0x0800_0000, limit: 256 * 1024 },
  RAM: { address: 0x2000_0000, limit: 64 * 1024 },
};

export interface HistoryCommit {
  sha: string;
  parent: string | null;
  message: string;
  timestamp: string;
  report: Record<string, unknown>;
}

/** A SHA-1-like id: distinct in its first characters, as real commit SHAs are. */
const sha = (index: number, salt: string) =>
  createHash('sha1').update(`${salt}:${index}`).digest('hex');

const MESSAGES = [
  'Add retry to the MQTT reconnect path',
  'Enable DMA for SPI transfers',
  'Refactor the sensor polling loop',
  'Inline the UART ring buffer helpers',
  'Bump HAL to 1.11',
  'Trim TLS cipher suites',
  'Fix I2C clock stretching timeout',
  'Add ADC oversampling',
  'Move lookup tables to flash',
  'Shrink the scheduler stack',
];

/**
 * `count` commits on one branch, oldest first. Sizes drift by a few bytes to a few hundred per
 * commit. Every run builds the same symbols and sizes, so tests can name a symbol that exists at
 * the head; `salt` only keeps the SHAs of separate runs apart.
 */
export function buildHistory(
  count: number,
  salt: string,
  start = Date.UTC(2026, 0, 5),
): HistoryCommit[] {
  const rand = seededRandom(HISTORY_SEED);
  const all = seeds(count, rand);
  const commits: HistoryCommit[] = [];
  for (let index = 0; index < count; index++) {
    for (const seed of all) {
      if (rand() < 0.04) seed.size = Math.max(4, seed.size + Math.floor((rand() - 0.35) * 120));
    }
    commits.push({
      sha: sha(index, salt),
      parent: index === 0 ? null : sha(index - 1, salt),
      message: `${MESSAGES[index % MESSAGES.length]} (#${index + 1})`,
      timestamp: new Date(start + index * 3_600_000 * 7).toISOString(),
      report: layout(all.filter((seed) => seed.from <= index && index < seed.until)),
    });
  }
  return commits;
}

/** Places the symbols section by section and derives sections and regions from them. */
function layout(symbols: SymbolSeed[]) {
  const placed: Array<Record<string, unknown>> = [];
  const sections: Record<'FLASH' | 'RAM', Array<Record<string, unknown>>> = { FLASH: [], RAM: [] };
  const cursor = { FLASH: REGIONS.FLASH.address, RAM: REGIONS.RAM.address };
  const plan = [
    { name: '.isr_vector', region: 'FLASH' as const, type: 'code', fixed: 0x188 },
    { name: '.text', region: 'FLASH' as const, type: 'code' },
    { name: '.rodata', region: 'FLASH' as const, type: 'rodata' },
    { name: '.data', region: 'RAM' as const, type: 'data' },
    { name: '.bss', region: 'RAM' as const, type: 'data' },
  ];
  for (const section of plan) {
    const start = cursor[section.region];
    let address = start;
    for (const symbol of symbols.filter((candidate) => candidate.section === section.name)) {
      placed.push({
        name: symbol.name,
        address,
        size: symbol.size,
        type: symbol.type,
        binding: 'GLOBAL',
        section: section.name,
        source_file: symbol.file,
        source_line: 1,
        visibility: 'DEFAULT',
        archive: '',
        object_file: symbol.file.split('/').pop()!.replace('.c', '.o'),
      });
      address += symbol.size + ((4 - (symbol.size % 4)) % 4);
    }
    const size = section.fixed ?? address - start;
    sections[section.region].push({
      name: section.name,
      address: start,
      size,
      type: section.type,
      end_address: start + size,
    });
    cursor[section.region] = start + size + 8;
  }
  const region = (name: 'FLASH' | 'RAM') => {
    const used = sections[name].reduce((sum, section) => sum + (section.size as number), 0);
    return {
      address: REGIONS[name].address,
      limit_size: REGIONS[name].limit,
      type: 'UNKNOWN',
      used_size: used,
      free_size: REGIONS[name].limit - used,
      utilization_percent: (used / REGIONS[name].limit) * 100,
      sections: sections[name],
    };
  };
  return {
    file_path: 'build/firmware.elf',
    architecture: 'arm',
    toolchain: 'gcc',
    entry_point: REGIONS.FLASH.address + 0x189,
    file_type: 'EXEC',
    machine: 'ARM',
    symbols: placed,
    program_headers: [],
    memory_layout: { FLASH: region('FLASH'), RAM: region('RAM') },
  };
}

/** The upload body of one commit (compat envelope). */
export function uploadBody(commit: HistoryCommit, target: string, branch = 'main') {
  return {
    metadata: {
      git: {
        commit_hash: commit.sha,
        base_commit_hash: commit.parent,
        branch_name: branch,
        commit_message: commit.message,
        commit_timestamp: commit.timestamp,
        author_name: 'Ada Lovelace',
      },
      target_name: target,
    },
    memory_analysis: commit.report,
  };
}

/** Uploads commits oldest first (each names its parent) so the branch head ends on the newest. */
export async function uploadHistory(
  baseUrl: string,
  apiKey: string,
  target: string,
  commits: HistoryCommit[],
  concurrency = 1,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < commits.length) {
      const commit = commits[next++]!;
      let response: Response;
      // The per-key upload limit answers 429 with Retry-After, as it would to a CI fleet.
      for (;;) {
        response = await fetch(`${baseUrl}/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(uploadBody(commit, target)),
        });
        if (response.status !== 429) break;
        await response.arrayBuffer();
        const wait = Number(response.headers.get('retry-after') ?? 1);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      }
      if (!response.ok) {
        throw new Error(
          `Upload of ${commit.sha} failed: ${response.status} ${await response.text()}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
