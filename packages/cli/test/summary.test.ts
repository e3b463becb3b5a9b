import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SummaryResponse } from '@memtrail/contracts';
import { COMMENT_MARKER, renderSummaryMarkdown } from '../src/render/summary-markdown.js';
import { cleanEnv, json, recordingServer, run, tempDir, type RecordingServer } from './support.js';

const summary: SummaryResponse = {
  success: true,
  data: {
    commit_sha: 'c'.repeat(40),
    pr_number: 12,
    dashboard_url: 'http://example.test/project/p1',
    targets: [
      {
        target_name: 'stm32',
        dashboard_url: 'http://example.test/project/p1/target/stm32',
        comparison_url: 'http://example.test/project/p1/target/stm32/compare?base=a&head=c',
        changes_summary: {
          changes: {
            regions: {
              modified: [
                { name: 'FLASH', used_size: 413, limit_size: 262144, old: { used_size: 400 } },
              ],
            },
            sections: {
              modified: [{ name: '.text', region: 'FLASH', size: 236, old: { size: 223 } }],
            },
            symbols: {
              added: [{ name: 'util_checksum', section: '.text', size: 56, delta: 56 }],
              removed: [{ name: 'old_table', section: '.rodata', size: 40, delta: -40 }],
              modified: [
                { name: 'main', section: '.text', size: 76, delta: -3, old: { size: 79 } },
              ],
              moved: [
                {
                  name: 'rx|buf',
                  section: '.bss',
                  size: 512,
                  delta: 0,
                  old: { size: 512, section: '.data' },
                },
              ],
            },
          },
        },
        alerts: {
          budgets: [
            {
              budget_name: 'Flash budget',
              exceeded_regions: ['FLASH'],
              current_usage: { FLASH: 413 },
              limits: { FLASH: 400 },
              exceeded_by: { FLASH: 13 },
            },
          ],
        },
      },
      {
        target_name: 'rp2',
        dashboard_url: '',
        comparison_url: '',
        changes_summary: { changes: { regions: { modified: [] }, sections: { modified: [] } } },
        alerts: { budgets: [] },
      },
    ],
  },
};

describe('summary Markdown', () => {
  const md = renderSummaryMarkdown(summary.data);

  it('starts with the marker and a heading per target with the comparison link', () => {
    expect(md.startsWith(`${COMMENT_MARKER}\n## Memtrail memory report`)).toBe(true);
    expect(md).toContain(
      '### stm32 ([comparison](http://example.test/project/p1/target/stm32/compare?base=a&head=c))',
    );
    expect(md).toContain('### rp2\n\nNo memory changes.');
  });

  it('shows region and section deltas', () => {
    expect(md).toContain('| FLASH | 413 B | +13 B | 256.0 KB | 0.2% |');
    expect(md).toContain('| .text | FLASH | 236 B | +13 B |');
  });

  it('shows symbol changes, largest first, escaping table characters', () => {
    const rows = md.split('\n').filter((l) => /^\| (added|removed|modified|moved) \|/.test(l));
    expect(rows).toEqual([
      '| added | `util_checksum` | .text | 56 B | +56 B |',
      '| removed | `old_table` | .rodata | 40 B | -40 B |',
      '| modified | `main` | .text | 76 B | -3 B |',
      '| moved | `rx\\|buf` | .data → .bss | 512 B | 0 B |',
    ]);
  });

  it('lists budget alerts', () => {
    expect(md).toContain('**:warning: 1 budget(s) exceeded**');
    expect(md).toContain('- Flash budget: FLASH 413 B used, limit 400 B (+13 B)');
  });

  it('fills custom templates and rejects unknown placeholders', () => {
    const custom = renderSummaryMarkdown(
      summary.data,
      'PR #{{ pr_number }}: {{alert_count}} alert(s)\n{{ targets }}',
    );
    expect(custom.startsWith(`${COMMENT_MARKER}\nPR #12: 1 alert(s)\n### stm32`)).toBe(true);
    expect(() => renderSummaryMarkdown(summary.data, '{{ nope }}')).toThrow(
      /unknown template placeholder \{\{ nope \}\}/,
    );
  });
});

describe('memtrail summary', () => {
  const dir = tempDir();
  let server: RecordingServer;
  beforeAll(async () => {
    server = await recordingServer((request) =>
      request.url.includes('missing')
        ? json(404, { success: false, error: 'commit not found', type: 'NotFound' })
        : json(200, summary),
    );
  });
  afterAll(async () => {
    await server.close();
    dir.cleanup();
  });
  const env = () => cleanEnv({ MEMTRAIL_API_KEY: 'k1' });

  it('GETs /summary?commit= with the key and prints Markdown', async () => {
    const result = await run(['summary', 'abc123', '--api-url', server.url], dir.path, env());
    expect(result.code).toBe(0);
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', url: '/summary?commit=abc123' });
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer k1');
    expect(result.stdout).toBe(renderSummaryMarkdown(summary.data));
  });

  it('prints the raw response with --json and uses a template file', async () => {
    const json = await run(
      ['summary', 'abc123', '--api-url', server.url, '--json'],
      dir.path,
      env(),
    );
    expect(JSON.parse(json.stdout)).toEqual(summary);
    writeFileSync(join(dir.path, 'comment.md'), '{{ marker }}\nCommit {{ commit }}\n');
    const templated = await run(
      ['summary', 'abc123', '--api-url', server.url, '--template', 'comment.md'],
      dir.path,
      env(),
    );
    expect(templated.stdout).toBe(`${COMMENT_MARKER}\nCommit ${'c'.repeat(40)}\n`);
  });

  it('exits 1 with the server error', async () => {
    const result = await run(['summary', 'missing', '--api-url', server.url], dir.path, env());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error: commit not found');
  });
});
