import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SummaryResponse, SummaryTarget } from '@memtrail/contracts';
import { verdictOf } from '../src/pr/verdict.js';
import {
  COMMENT_MARKER,
  renderSummaryMarkdown,
  renderTarget,
} from '../src/render/summary-markdown.js';
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

  it('shows region deltas with the changed sections of each region under it', () => {
    expect(md).toContain(
      '| **FLASH** | 413 B | +13 B | 256.0 KB | 0.2% |\n| ↳ `.text` | 236 B | +13 B | | |',
    );
  });

  it('shows symbol changes, largest first, with sizes before and after, escaping table characters', () => {
    const rows = md.split('\n').filter((l) => /^\| (added|removed|grown|shrunk|moved) \|/.test(l));
    expect(rows).toEqual([
      '| added | `util_checksum` | .text | — | 56 B | +56 B |',
      '| removed | `old_table` | .rodata | 40 B | — | -40 B |',
      '| shrunk | `main` | .text | 79 B | 76 B | -3 B |',
      '| moved | `rx\\|buf` | .data → .bss | 512 B | 512 B | 0 B |',
    ]);
  });

  it('limits symbol rows with maxSymbols and says how many more the comparison has', () => {
    const limited = renderSummaryMarkdown(summary.data, undefined, { maxSymbols: 1 });
    expect(limited).toContain('| added | `util_checksum` |');
    expect(limited).not.toContain('`old_table`');
    expect(limited).toContain('…and 3 more symbol changes in the comparison.');
    expect(renderSummaryMarkdown(summary.data, undefined, { maxSymbols: 0 })).not.toContain(
      'Symbol changes',
    );
  });

  it('folds many targets under an overview, keeping targets with alerts open', () => {
    const folded = renderSummaryMarkdown(summary.data, undefined, { collapseAfter: 1 });
    expect(folded).toContain('| Target | Regions | Budgets |');
    expect(folded).toContain(
      '| [stm32](http://example.test/project/p1/target/stm32/compare?base=a&head=c) | FLASH 0.2% (+13 B) | :warning: 1 exceeded |',
    );
    expect(folded).toContain(
      '<details open><summary><b>stm32</b> — :warning: 1 budget(s) exceeded · FLASH 0.2% (+13 B)</summary>',
    );
    expect(folded).toContain('<details><summary><b>rp2</b> — no regions</summary>');
    expect(renderSummaryMarkdown(summary.data)).not.toContain('<details');
  });

  it('says why there is nothing to compare with, and when the build failed', () => {
    const target = (extra: Partial<SummaryTarget>): SummaryTarget => ({
      ...summary.data.targets[1]!,
      regions: [{ name: 'FLASH', used_size: 100, limit_size: 1000, change: null }],
      ...extra,
    });
    const render = (t: SummaryTarget) => renderTarget(t);
    expect(render(target({ parent_sha: null }))).toContain(
      'First report of this target: nothing to compare with.',
    );
    expect(render(target({ parent_sha: 'abcdef0123' }))).toContain(
      'No report of the base commit `abcdef0` for this target yet, so nothing to compare with.',
    );
    expect(render(target({ parent_sha: 'abcdef0123' }))).toContain(
      '| **FLASH** | 100 B | — | 1000 B | 10.0% |',
    );
    expect(render(target({ kind: 'build_failed' }))).toContain(
      '**The build of this commit failed.**',
    );
  });

  it('turns each target into a status: failure for exceeded budgets or failed builds', () => {
    expect(verdictOf(summary.data.targets[0]!)).toEqual({
      context: 'memtrail/stm32',
      ok: false,
      description: 'Budget exceeded: Flash budget: FLASH 413 B used, limit 400 B (+13 B)',
      url: 'http://example.test/project/p1/target/stm32/compare?base=a&head=c',
    });
    const fine = {
      ...summary.data.targets[1]!,
      regions: [{ name: 'RAM', used_size: 512, limit_size: 1024, change: 0 }],
    };
    expect(verdictOf(fine)).toMatchObject({ ok: true, description: 'RAM 50.0% (0 B)' });
    expect(verdictOf({ ...fine, kind: 'build_failed' })).toMatchObject({
      ok: false,
      description: 'Build failed',
    });
    const long = verdictOf({
      ...fine,
      regions: Array.from({ length: 20 }, (_, i) => ({
        name: `REGION_${i}`,
        used_size: 1,
        limit_size: 2,
        change: 1,
      })),
    });
    expect(long.description).toHaveLength(140);
    expect(long.description.endsWith('…')).toBe(true);
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
    expect(result.stderr).toContain('the server has no report of this commit');
  });
});
