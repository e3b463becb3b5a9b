import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { createIsolatedStores, eventually, type IsolatedStores } from '@memtrail/testing';
import { seededRandom } from '@memtrail/testing/random';
import {
  envelope,
  evolve,
  initialFirmware,
  shaOf,
  toReport,
  type CommitSpec,
} from '../../services/query/bench/synthetic-firmware.js';
import {
  startGateway,
  strongPassword,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { startReadServices, type ReadServices } from './support/read-services.js';

/** One real answer of the gateway, and the generated type it must fit. */
interface Answer {
  name: string;
  path: string;
  method: 'get' | 'post' | 'put' | 'delete';
  status: number;
  body: unknown;
}

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The generated program, as a user would keep it: its own folder, resolving openapi-fetch from
// the repository's node_modules.
const outDir = mkdtempSync(join(tmpdir(), 'memtrail-generated-client-'));
symlinkSync(join(repository, 'node_modules'), join(outDir, 'node_modules'), 'dir');

/** Type-checks the generated program strictly; the diagnostics as readable lines. */
function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').slice(0, 400);
    if (!d.file) return message;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    const text = d.file.text.split('\n')[line]?.trim();
    return `${d.file.fileName.slice(outDir.length + 1)}:${line + 1} ${text} — ${message}`;
  });
}

type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** The document's response for a status: its own entry, else its range (`4XX`). */
const responseKey = (document: Document, a: Answer) =>
  String(a.status) in document.paths[a.path]![a.method]!.responses
    ? String(a.status)
    : `${String(a.status)[0]}XX`;

/** A TypeScript module asserting, for each answer, that it is a value of its generated type. */
function answersModule(document: Document, answers: Answer[]): string {
  const lines = [
    "import type { paths } from './api.js';",
    '',
    '/** The JSON body of an operation answering `S`. */',
    'type Json<P extends keyof paths, M extends keyof paths[P], S extends string> =',
    '  paths[P][M] extends { responses: infer R }',
    "    ? R extends Record<S, { content: { 'application/json': infer B } }>",
    '      ? B',
    '      : never',
    '    : never;',
    '',
  ];
  for (const [i, a] of answers.entries()) {
    lines.push(
      `// ${a.name}`,
      `export const answer${i}: Json<'${a.path}', '${a.method}', '${responseKey(document, a)}'> = ${JSON.stringify(a.body, null, 1)};`,
      '',
    );
  }
  return lines.join('\n');
}

/** Calls written against the generated client: parameters and answers are typed by the document. */
const USAGE = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:5000' });

export async function latestFlash(project: string, target: string, sha: string): Promise<number> {
  const page = await client.GET('/api/{project}/{target}/commits/{sha}', {
    params: { path: { project, target, sha }, query: { count: 5, only_changed: true } },
  });
  const commits = page.data?.data.commits ?? [];
  const report = await client.GET('/api/{project}/{target}/commit/{sha}', {
    params: { path: { project, target, sha: commits[0]?.sha ?? sha }, query: { include_symbols: false } },
  });
  if (report.error) throw new Error(report.error.type + ': ' + report.error.error);
  return report.data.data.regions.find((r) => r.name === 'FLASH')?.used_size ?? 0;
}

export async function createProject(token: string): Promise<string | undefined> {
  const created = await client.POST('/api/projects', {
    headers: { authorization: 'Bearer ' + token },
    body: { name: 'Generated', description: null },
  });
  return created.data?.data.project.api_key;
}
`;

/**
 * A user generates a client for the API from `/docs/openapi.json` with openapi-typescript and
 * calls it through openapi-fetch. The real gateway (with the real query service and worker on
 * real stores) answers every kind of call; each answer must be a value of the type the
 * generator wrote for it, checked by the TypeScript compiler.
 */
describe('a client generated from /docs/openapi.json', () => {
  let stores: IsolatedStores;
  let reads: ReadServices;
  let gw: Gateway;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    reads = await startReadServices(stores);
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      QUERY_PORT: String(reads.queryPort),
      QUERY_TIMEOUT_MS: '10000',
    });
  });

  afterAll(async () => {
    await gw?.close();
    await reads?.close();
    await stores?.cleanup();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('generates, calls the running gateway, and type-checks against its real answers', async () => {
    const document = (await (await fetch(`${gw.url}/docs/openapi.json`)).json()) as Document;
    writeFileSync(join(outDir, 'api.d.ts'), astToString(await openapiTS(document as never)));
    writeFileSync(join(outDir, 'usage.ts'), USAGE);
    writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');

    // The generated client's runtime, untyped here: its types are checked by tsc below.
    const client = createClient<Record<string, never>>({ baseUrl: gw.url });
    const answers: Answer[] = [];
    const record = async (
      name: string,
      method: Answer['method'],
      path: string,
      options: {
        path?: Record<string, string>;
        query?: Record<string, unknown>;
        body?: unknown;
        token?: string;
        headers?: Record<string, string>;
      } = {},
    ) => {
      const call = client[method.toUpperCase() as 'GET'] as (
        path: string,
        init: object,
      ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const { data, error, response } = await call(path, {
        params: { path: options.path, query: options.query },
        headers: {
          ...(options.token && { authorization: `Bearer ${options.token}` }),
          ...options.headers,
        },
        ...(options.body !== undefined && { body: options.body }),
      });
      answers.push({ name, path, method, status: response.status, body: data ?? error });
      return (data ?? error) as never;
    };

    // Accounts and a project.
    await record('auth settings', 'get', '/auth/settings');
    const signUp = await record('sign-up', 'post', '/auth/signup', {
      body: { email: 'client@example.com', password: strongPassword(), full_name: 'Client' },
    });
    const token = (signUp as { data: { access_token: string } }).data.access_token;
    await record('sign-in refused', 'post', '/auth/login', {
      body: { email: 'client@example.com', password: 'wrong' },
    });
    await record('current user', 'get', '/auth/user', { token });
    const created = await record('project created', 'post', '/api/projects', {
      token,
      body: { name: 'Generated client', description: 'Typed from the document' },
    });
    const project = (created as { data: { project: { id: string; api_key: string } } }).data
      .project;
    const key = project.api_key;
    await record('project refused', 'post', '/api/projects', { token, body: { name: '!' } });
    await record('projects', 'get', '/api/projects', { token });
    await record('project page', 'get', '/api/projects', { token, query: { limit: 10 } });
    await record('members', 'get', '/api/projects/{id}/members', {
      token,
      path: { id: project.id },
    });
    await record('keys', 'get', '/api/projects/{id}/keys', { token, path: { id: project.id } });
    await record('read key', 'post', '/api/projects/{id}/keys', {
      token,
      path: { id: project.id },
      body: { name: 'dashboard', scope: 'read' },
    });
    await record('public access', 'get', '/api/projects/{id}/public-access', {
      token,
      path: { id: project.id },
    });
    await record('organisations', 'get', '/api/orgs', { token });

    // Three commits of one target, uploaded as the CLI does and ingested by the worker.
    const target = 'board';
    const sha = (i: number) => shaOf('generated-client', i);
    const rnd = seededRandom(3);
    let id = 50_000;
    const first = initialFirmware(120, 5);
    const second = evolve(
      first,
      { grow: 3, shrink: 2, add: 2, remove: 1, rename: 1, move: 1 },
      rnd,
      () => id++,
    );
    const third = evolve(
      second,
      { grow: 2, shrink: 1, add: 1, remove: 1, rename: 0, move: 0 },
      rnd,
      () => id++,
    );
    for (const [i, firmware] of [first, second, third].entries()) {
      const spec: CommitSpec = {
        sha: sha(i + 1),
        parent: i === 0 ? null : sha(i),
        branch: 'main',
        message: `Commit ${i + 1}\n\nBody`,
        time: new Date(Date.UTC(2026, 9, 1 + i)),
        target,
        kind: 'full',
      };
      await record(`upload ${i + 1}`, 'post', '/upload', {
        token: key,
        body: envelope(spec, toReport(firmware)),
      });
    }
    await record('upload refused', 'post', '/upload', { token: key, body: { metadata: {} } });
    await eventually(
      () => gw.prisma.report.count({ where: { status: { not: 'ingested' } } }),
      (pending) => pending === 0,
      { timeoutMs: 60_000 },
    );

    const at = { project: project.id, target };
    const [a, b] = [sha(1), sha(3)];
    await record('summary', 'get', '/summary', { token: key, query: { commit: b } });
    await record('targets', 'get', '/api/{project}/targets', {
      token,
      path: { project: project.id },
    });
    await record('region config', 'get', '/api/{project}/{target}/region-config', {
      token,
      path: at,
    });
    await record('region config set', 'put', '/api/{project}/{target}/region-config', {
      token,
      path: at,
      body: {
        region_config: { version: 2, regions: { FLASH: { display_name: 'Flash', kind: 'flash' } } },
      },
    });
    await record('budget', 'post', '/api/{project}/{target}/budgets', {
      token,
      path: at,
      body: { name: 'Flash cap', limits: { FLASH: 1_000_000 } },
    });
    await record('budgets', 'get', '/api/{project}/{target}/budgets', { token, path: at });
    await record('budget status', 'get', '/api/{project}/{target}/budgets/status', {
      token,
      path: at,
      query: { sha: b },
    });
    await record('heads', 'get', '/api/{project}/{target}/heads', { token, path: at });
    await record('commits', 'get', '/api/{project}/{target}/commits/{sha}', {
      token,
      path: { ...at, sha: b },
      query: { count: 2 },
    });
    await record('report', 'get', '/api/{project}/{target}/commit/{sha}', {
      token,
      path: { ...at, sha: b },
      query: { include_symbols: true },
    });
    await record('report refused', 'get', '/api/{project}/{target}/commit/{sha}', {
      token,
      path: { ...at, sha: 'not-a-sha' },
    });
    await record('tree', 'get', '/api/{project}/{target}/commit/{sha}/tree', {
      token,
      path: { ...at, sha: b },
    });
    await record('symbols', 'get', '/api/{project}/{target}/commit/{sha}/symbols', {
      token,
      path: { ...at, sha: b },
      query: { limit: 5, sort: 'name', order: 'asc' },
    });
    await record('diff', 'get', '/api/{project}/{target}/commit/{shaA}/{shaB}', {
      token,
      path: { ...at, shaA: a, shaB: b },
    });
    await record('region series', 'get', '/api/{project}/{target}/series/regions', {
      token,
      path: at,
      query: { branch: 'main' },
    });
    await record('section series', 'get', '/api/{project}/{target}/series/sections', {
      token,
      path: at,
      query: { sha: b },
    });
    await record('symbol history', 'get', '/api/{project}/{target}/symbols/history', {
      token,
      path: at,
      query: { name: first[1]!.name, branch: 'main' },
    });
    await record('file history', 'get', '/api/{project}/{target}/files/history', {
      token,
      path: at,
      query: { path: first[1]!.source_file, branch: 'main' },
    });
    await record('growers', 'get', '/api/{project}/{target}/growers', {
      token,
      path: at,
      query: { base: a, head: b },
    });
    await record('liveness', 'get', '/healthz');

    // Every call was answered as meant: the refusals (401 for a wrong password, 400 for bad
    // input), everything else with success.
    expect(answers.map(({ name, status }) => ({ name, ok: status < 300 }))).toEqual(
      answers.map(({ name }) => ({ name, ok: !name.endsWith('refused') })),
    );
    expect(answers.filter((x) => x.name.endsWith('refused')).map((x) => x.status)).toEqual([
      401, 400, 400, 400,
    ]);
    writeFileSync(join(outDir, 'answers.ts'), answersModule(document, answers));
    expect(typeCheck([join(outDir, 'usage.ts'), join(outDir, 'answers.ts')])).toEqual([]);

    // The check can fail: a real answer with one field of the wrong type is refused.
    const [report] = answers.filter((x) => x.name === 'report');
    const broken = structuredClone(report!) as Answer & { body: { data: { report: object } } };
    broken.body.data.report = { ...broken.body.data.report, symbol_count: 'many' };
    writeFileSync(join(outDir, 'broken.ts'), answersModule(document, [broken]));
    const refused = typeCheck([join(outDir, 'broken.ts')]);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/"symbol_count": "many"/);
  });
});
