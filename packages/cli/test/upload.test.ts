import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { UploadEnvelope } from '@memtrail/contracts';
import { VERSION } from '../src/context.js';
import { parseRetryAfter } from '../src/upload/http.js';
import {
  cleanEnv,
  git,
  json,
  makeRepo,
  recordingServer,
  reset,
  run,
  successBody,
  tempDir,
  type RecordingServer,
} from './support.js';

const budget = {
  budget_name: 'Flash budget',
  exceeded_regions: ['FLASH'],
  current_usage: { FLASH: 413 },
  limits: { FLASH: 400 },
  exceeded_by: { FLASH: 13 },
};

describe('upload protocol against a recording server', () => {
  const dir = tempDir();
  let head: string;
  let parent: string;
  let server: RecordingServer | undefined;
  const env = (extra: Record<string, string> = {}) =>
    cleanEnv({ MEMTRAIL_API_KEY: 'mt_key_secret', ...extra });

  beforeAll(() => {
    const repo = makeRepo(dir.path);
    parent = repo.commit('first', { 'main.c': 'int main(void){return 0;}' });
    head = repo.commit('second', { 'main.c': 'int main(void){return 1;}' });
    git(dir.path, 'remote', 'add', 'origin', 'https://github.com/example/sample-fw.git');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(() => dir.cleanup());

  it('posts the gzip envelope with the key, and prints one result line', async () => {
    server = await recordingServer([json(200, successBody())]);
    const result = await run(
      [
        'upload',
        '--identical',
        '--target-name',
        'stm32',
        '--api-url',
        `${server.url}/`,
        '--tags',
        'v1 v2',
      ],
      dir.path,
      env(),
    );
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/upload');
    expect(request.headers['content-encoding']).toBe('gzip');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe('Bearer mt_key_secret');
    expect(request.headers['user-agent']).toBe(`Memtrail-CLI/${VERSION} (CLI)`);
    const envelope = request.json as UploadEnvelope;
    expect(envelope).toEqual({
      metadata: {
        git: {
          commit_hash: head,
          base_commit_hash: parent,
          branch_name: 'main',
          repository: 'example/sample-fw',
          commit_message: 'second',
          commit_timestamp: expect.any(String),
          author_name: 'Ada Tester',
          author_email: 'ada@example.test',
          tags: ['v1', 'v2'],
          pr_number: null,
          pr_name: null,
          pr_author_name: null,
          pr_author_email: null,
        },
        repository: 'example/sample-fw',
        target_name: 'stm32',
        analysis_version: VERSION,
        architecture: null,
        toolchain: null,
        identical: true,
      },
      memory_analysis: {
        file_path: null,
        architecture: null,
        toolchain: null,
        entry_point: null,
        file_type: null,
        machine: null,
        symbols: [],
        program_headers: [],
        memory_layout: {},
      },
    });
    expect(result.stdout).toBe(
      `Uploaded stm32 @ ${head.slice(0, 7)}: FLASH +13 B, RAM 0 B — http://example.test/compare?base=a&head=b\n`,
    );
  });

  it("says when an upload is its target's first report, or its parent has none", async () => {
    server = await recordingServer([
      json(200, successBody({ changes_summary: {}, parent_sha: null, comparison_url: null })),
      json(200, successBody({ changes_summary: {}, parent_sha: parent, comparison_url: null })),
    ]);
    const args = ['upload', '--identical', '--target-name', 'stm32', '--api-url', server.url];
    expect((await run(args, dir.path, env())).stdout).toBe(
      `Uploaded stm32 @ ${head.slice(0, 7)}: first report of this target\n`,
    );
    expect((await run(args, dir.path, env())).stdout).toBe(
      `Uploaded stm32 @ ${head.slice(0, 7)}: nothing to compare with (the parent ${parent.slice(0, 7)} has no report yet)\n`,
    );
  });

  it('sends build_failed with the failed-build report and --base-sha none as an explicit no-parent', async () => {
    server = await recordingServer([json(200, successBody())]);
    const result = await run(
      [
        'upload',
        'fw.elf',
        '--build-failed',
        '--target-name',
        't',
        '--api-url',
        server.url,
        '--base-sha',
        'none',
      ],
      dir.path,
      env(),
    );
    expect(result.code).toBe(0);
    const envelope = server.requests[0]!.json as UploadEnvelope;
    expect(envelope.metadata.build_failed).toBe(true);
    expect(envelope.metadata.identical).toBe(false);
    expect(envelope.metadata.git.parent_commit_hash).toBeNull();
    expect(envelope.metadata.git.base_commit_hash).toBeNull();
    expect(envelope.memory_analysis).toMatchObject({
      file_path: 'fw.elf',
      entry_point: 0,
      file_type: 'unknown',
      machine: 'unknown',
      memory_layout: {},
    });
  });

  it('takes the key from MEMBROWSE_API_KEY or the variable named by --api-key-env', async () => {
    server = await recordingServer([json(200, successBody())]);
    const base = ['upload', '--identical', '--target-name', 't', '--api-url', server.url];
    expect((await run(base, dir.path, cleanEnv({ MEMBROWSE_API_KEY: 'legacy' }))).code).toBe(0);
    expect(
      (
        await run(
          [...base, '--api-key-env', 'FW_KEY'],
          dir.path,
          cleanEnv({ FW_KEY: 'custom', MEMTRAIL_API_KEY: 'other' }),
        )
      ).code,
    ).toBe(0);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer legacy',
      'Bearer custom',
    ]);
    const missing = await run(
      [...base, '--api-key-env', 'FW_KEY'],
      dir.path,
      cleanEnv({ MEMTRAIL_API_KEY: 'other' }),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('set FW_KEY');
  });

  it('retries 503 and a connection reset, then succeeds', async () => {
    server = await recordingServer([
      json(503, { success: false, error: 'busy', type: 'Unavailable' }),
      reset,
      json(200, successBody()),
    ]);
    const result = await run(
      ['upload', '--identical', '--target-name', 't', '--api-url', server.url],
      dir.path,
      env(),
    );
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(result.stderr).toContain('(attempt 3 of 5)');
    expect(result.stderr).toMatch(/503 Service Unavailable; retrying/);
  });

  it('honours Retry-After on 429 when it asks for longer than the backoff', async () => {
    server = await recordingServer([
      json(
        429,
        { success: false, error: 'slow down', type: 'RateLimited' },
        { 'Retry-After': '1' },
      ),
      json(200, successBody()),
    ]);
    const result = await run(
      ['upload', '--identical', '--target-name', 't', '--api-url', server.url],
      dir.path,
      env(),
    );
    expect(result.code).toBe(0);
    // The backoff here is 5 ms (support.ts): the wait it announces is the server's 1 s.
    expect(result.stderr).toContain('retrying in 1.0 s');
    expect(server.requests).toHaveLength(2);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('gives up after the configured attempts', async () => {
    server = await recordingServer([
      json(502, { success: false, error: 'bad gateway', type: 'Proxy' }),
    ]);
    const result = await run(
      ['upload', '--identical', '--target-name', 't', '--api-url', server.url],
      dir.path,
      env({ MEMTRAIL_HTTP_ATTEMPTS: '3' }),
    );
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(result.stderr).toMatch(/gave up after 3 attempts/);
  });

  it('does not retry a 400 and prints the server error', async () => {
    server = await recordingServer([
      json(400, {
        success: false,
        error: 'memory_layout is required and cannot be empty',
        type: 'ValidationError',
      }),
    ]);
    const result = await run(
      ['upload', '--identical', '--target-name', 't', '--api-url', server.url],
      dir.path,
      env(),
    );
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(result.stderr).toContain(`HTTP error from ${server.url}/upload: 400 Bad Request`);
    expect(result.stderr).toContain('Error: memory_layout is required and cannot be empty');
  });

  it('fails on a 2xx without success, with the quota details', async () => {
    server = await recordingServer([
      json(200, {
        success: false,
        type: 'UploadLimitExceededError',
        error: 'monthly limit reached',
        upload_count_monthly: 100,
        monthly_upload_limit: 100,
        upgrade_url: 'http://example.test/upgrade',
      }),
    ]);
    const result = await run(
      ['upload', '--identical', '--target-name', 't', '--api-url', server.url],
      dir.path,
      env(),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error: UploadLimitExceededError - monthly limit reached');
    expect(result.stderr).toContain('Uploads this period: 100 of 100');
    expect(result.stderr).toContain('Upgrade: http://example.test/upgrade');
  });

  it('exits 1 on budget alerts with the messages, and 0 with --dont-fail-on-alerts', async () => {
    server = await recordingServer([json(200, successBody({ alerts: { budgets: [budget] } }))]);
    const args = ['upload', '--identical', '--target-name', 't', '--api-url', server.url];
    const failed = await run(args, dir.path, env());
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `ERROR: (${head}): Budget Alert Error: 1 budget(s) exceeded. Use --dont-fail-on-alerts to continue despite alerts.`,
    );
    expect(failed.stderr).toContain('Flash budget: FLASH 413 B used, limit 400 B (+13 B)');
    expect(failed.stderr).toContain('ERROR: Failed to upload report: Budget alerts detected');
    const allowed = await run([...args, '--dont-fail-on-alerts'], dir.path, env());
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toContain('1 budget(s) exceeded');
  });

  it('prints the raw response as pure JSON on stdout, even when alerts fail the run', async () => {
    const body = successBody({ alerts: { budgets: [budget] }, is_overwritten: true });
    server = await recordingServer([json(200, body)]);
    const result = await run(
      [
        'report',
        '--upload',
        '--identical',
        '--target-name',
        'stm32',
        '--api-url',
        server.url,
        '--output-raw-response',
        '--pr-number',
        '12',
      ],
      dir.path,
      env(),
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      comparison_url: 'http://example.test/compare?base=a&head=b',
      api_response: body,
      target_name: 'stm32',
      pr_number: '12',
    });
    expect(result.stderr).toContain('WARNING: this upload overwrote existing data for stm32');
  });

  it('reports a refused connection after retrying', async () => {
    const closed = await recordingServer([json(200, {})]);
    const url = closed.url;
    await closed.close();
    const result = await run(
      ['upload', '--identical', '--target-name', 't', '--api-url', url],
      dir.path,
      env({ MEMTRAIL_HTTP_ATTEMPTS: '2' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/failed: ECONNREFUSED/);
  });
});
