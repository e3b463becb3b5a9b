import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import type { MemoryReport } from '@memtrail/contracts';
import { validateUpload } from '../src/upload/validate-upload.js';

const sample = JSON.parse(
  readFileSync(
    new URL('../../../tests/fixtures/membrowse-sample-report.json', import.meta.url),
    'utf8',
  ),
) as MemoryReport;

const envelope = (memory: MemoryReport) => ({
  metadata: { target_name: 'board', git: { commit_hash: 'a'.repeat(40) } },
  memory_analysis: memory,
});

/** The sample with its first symbol changed; the 400 message the upload gets. */
function refusalWithSymbol(change: Record<string, unknown>): string {
  const symbols = [{ ...sample.symbols[0]!, ...change }, ...sample.symbols.slice(1)];
  try {
    validateUpload(envelope({ ...sample, symbols } as MemoryReport));
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

describe('upload validation', () => {
  it('accepts the MemBrowse sample report unchanged', () => {
    const upload = validateUpload(envelope(sample));
    expect(upload.report.symbols).toHaveLength(sample.symbols.length);
  });

  it.each([
    [{ address: -4 }, 'memory_analysis.symbols[0].address must be a non-negative integer'],
    [{ address: '0x8000' }, 'memory_analysis.symbols[0].address must be a non-negative integer'],
    [{ address: 2 ** 64 }, 'memory_analysis.symbols[0].address must be a non-negative integer'],
    [{ size: 1.5 }, 'memory_analysis.symbols[0].size must be a non-negative integer'],
    [{ size: null }, 'memory_analysis.symbols[0].size must be a non-negative integer'],
    [{ source_line: 2 ** 32 }, 'memory_analysis.symbols[0].source_line must be a non-negative'],
    [{ source_line: 'twelve' }, 'memory_analysis.symbols[0].source_line must be a non-negative'],
    [{ section: { name: '.text' } }, 'memory_analysis.symbols[0].section must be a string'],
    [{ object_file: 7 }, 'memory_analysis.symbols[0].object_file must be a string'],
    [{ name: null }, 'memory_analysis.symbols[0].name must be a string'],
  ])('refuses a symbol with %j, naming the field', (change, message) => {
    expect(refusalWithSymbol(change)).toContain(message);
  });

  it('accepts what older CLIs omit or leave null', () => {
    expect(
      refusalWithSymbol({
        source_line: undefined,
        visibility: undefined,
        archive: null,
        object_file: undefined,
      }),
    ).toBe('accepted');
    // 64-bit addresses above 2^53 arrive rounded but still fit ClickHouse's UInt64.
    expect(refusalWithSymbol({ address: 0xffff_8000_0000_0000 })).toBe('accepted');
  });

  it('refuses regions and sections whose numbers are not byte counts', () => {
    const flash = sample.memory_layout.FLASH!;
    const refusal = (region: Record<string, unknown>) => {
      try {
        validateUpload(
          envelope({ ...sample, memory_layout: { FLASH: region } } as unknown as MemoryReport),
        );
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ ...flash, used_size: 10.25 })).toContain(
      'memory_analysis.memory_layout.FLASH.used_size must be a non-negative integer',
    );
    expect(refusal({ ...flash, type: ['rx'] })).toContain(
      'memory_analysis.memory_layout.FLASH.type must be a string',
    );
    expect(refusal({ ...flash, sections: [{ ...flash.sections[0]!, size: -1, type: 3 }] })).toMatch(
      /sections\[0\]\.size must be a non-negative integer.*sections\[0\]\.type must be/,
    );
  });

  it('refuses NUL characters in what Postgres stores as text, naming the field', () => {
    const flash = sample.memory_layout.FLASH!;
    const refusal = (git: Record<string, unknown>, layout = sample.memory_layout) => {
      try {
        validateUpload({
          metadata: { target_name: 'board', git: { commit_hash: 'a'.repeat(40), ...git } },
          memory_analysis: { ...sample, memory_layout: layout },
        });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ commit_message: 'fix\u0000' }, 'metadata.git.commit_message'],
      [{ branch_name: 'ma\u0000in' }, 'metadata.git.branch_name'],
      [{ pr_name: '\u0000' }, 'metadata.git.pr_name'],
      [{ pr_author_name: 'x\u0000' }, 'metadata.git.pr_author_name'],
      [{ author_email: 'a\u0000@b' }, 'metadata.git.author_email'],
      [{ tags: ['v1', 'v\u00002'] }, 'metadata.git.tags[1]'],
    ];
    for (const [git, path] of cases) {
      expect(refusal(git)).toBe(`${path} cannot contain NUL characters`);
    }
    expect(refusal({}, { ['FL\u0000SH']: flash })).toBe(
      'memory_analysis.memory_layout.FL\\u0000SH (a region name) cannot contain NUL characters',
    );
    const section = { ...flash.sections[0]!, name: '.te\u0000xt' };
    expect(refusal({}, { FLASH: { ...flash, sections: [section] } })).toBe(
      'memory_analysis.memory_layout.FLASH.sections[0].name cannot contain NUL characters',
    );
    expect(refusal({ commit_message: 'ok' })).toBe('accepted');
  });
});
