import { execFileSync } from 'node:child_process';
import type { LayoutSection, LayoutSegment } from '@memtrail/report';

/** Sections and PT_LOAD segments of an ELF, read from `arm-none-eabi-readelf -S -l -W`. */
export function readElfLayout(elf: string): {
  sections: LayoutSection[];
  segments: LayoutSegment[];
} {
  const out = execFileSync('arm-none-eabi-readelf', ['-S', '-l', '-W', elf], { encoding: 'utf8' });
  const sections: LayoutSection[] = [];
  const segments: LayoutSegment[] = [];
  for (const line of out.split('\n')) {
    const section =
      /^\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+(\S*)\s+\d+\s+\d+\s+(\d+)$/.exec(
        line,
      );
    if (section) {
      const flags = section[5]!;
      sections.push({
        name: section[1]!,
        type: section[2]!,
        address: Number.parseInt(section[3]!, 16),
        size: Number.parseInt(section[4]!, 16),
        flags: {
          alloc: flags.includes('A'),
          write: flags.includes('W'),
          exec: flags.includes('X'),
          tls: flags.includes('T'),
        },
        alignment: Number(section[6]),
      });
      continue;
    }
    const segment =
      /^\s*(LOAD)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+([RWE ]+?)\s+0x[0-9a-f]+$/.exec(
        line,
      );
    if (segment) {
      segments.push({
        type: 'PT_LOAD',
        virtAddr: Number.parseInt(segment[2]!, 16),
        physAddr: Number.parseInt(segment[3]!, 16),
        fileSize: Number.parseInt(segment[4]!, 16),
        memSize: Number.parseInt(segment[5]!, 16),
        flags: segment[6]!.replace(/\s/g, '').replace('E', 'X'),
      });
    }
  }
  return { sections, segments };
}

/** Allocated sections from `size -A` plus load addresses from `objdump -h`: the ground truth. */
export function sizeAndLoadAddresses(
  elf: string,
): { name: string; size: number; vma: number; lma: number; load: boolean }[] {
  const sizes = new Map<string, { size: number; addr: number }>();
  for (const line of execFileSync('arm-none-eabi-size', ['-A', elf], { encoding: 'utf8' }).split(
    '\n',
  )) {
    const match = /^(\.\S+)\s+(\d+)\s+(\d+)$/.exec(line);
    if (match) sizes.set(match[1]!, { size: Number(match[2]), addr: Number(match[3]) });
  }
  const lines = execFileSync('arm-none-eabi-objdump', ['-h', '-w', elf], {
    encoding: 'utf8',
  }).split('\n');
  const result: { name: string; size: number; vma: number; lma: number; load: boolean }[] = [];
  for (const line of lines) {
    const match =
      /^\s*\d+\s+(\S+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+\S+\s+(.*)$/.exec(
        line,
      );
    if (!match || !match[4]!.includes('ALLOC')) continue;
    const fromSize = sizes.get(match[1]!)!;
    result.push({
      name: match[1]!,
      size: fromSize.size,
      vma: fromSize.addr,
      lma: Number.parseInt(match[3]!, 16),
      load: match[4]!.includes('LOAD'),
    });
  }
  return result;
}
