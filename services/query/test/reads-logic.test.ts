import { describe, expect, it } from '@jest/globals';
import type { ReportSymbolRow } from '@memtrail/contracts';
import { walkChain } from '../src/reads/chain.js';
import type { TimelineEntry } from '../src/reads/timeline.cache.js';
import { toCsv } from '../src/reads/csv.js';
import { buildTree } from '../src/reads/tree.js';

const node = (
  sha: string,
  parent: string | null,
  kind: TimelineEntry['kind'],
  totals: string,
): TimelineEntry => ({
  id: `id-${sha}`,
  sha,
  parent_sha: parent,
  kind,
  status: 'ingested',
  branch: 'main',
  ingested_version: 1,
  created_at: new Date(0),
  committed_at: null,
  message: null,
  subject: null,
  author_name: null,
  author_email: null,
  tags: [],
  region_totals: {},
  totals_key: totals,
});

describe('chain walk', () => {
  const nodes = new Map(
    [
      node('a', null, 'full', 't1'),
      node('b', 'a', 'full', 't2'),
      node('c', 'b', 'identical', 't2'),
      node('d', 'c', 'build_failed', '{}'),
      node('e', 'd', 'full', 't2'),
      node('f', 'e', 'full', 't3'),
      node('x', 'missing', 'full', 't9'),
    ].map((n) => [n.sha, n]),
  );

  it('flags footprint changes against the nearest older build that has one', () => {
    const walked = walkChain(nodes, 'f')!;
    expect(
      walked.map((w) => [w.node.sha, w.depth, w.changed, w.footprintParent?.sha ?? null]),
    ).toEqual([
      ['f', 0, true, 'e'],
      ['e', 1, false, 'c'],
      ['d', 2, true, 'c'],
      ['c', 3, false, 'b'],
      ['b', 4, true, 'a'],
      ['a', 5, true, null],
    ]);
  });

  it('ends where a parent has no report, and is null for an unknown commit', () => {
    expect(walkChain(nodes, 'x')!.map((w) => w.node.sha)).toEqual(['x']);
    expect(walkChain(nodes, 'nope')).toBeNull();
  });

  it('stops at the first commit seen twice', () => {
    const loop = new Map(
      [node('p', 'q', 'full', '1'), node('q', 'p', 'full', '2')].map((n) => [n.sha, n]),
    );
    expect(walkChain(loop, 'p')!.map((w) => w.node.sha)).toEqual(['p', 'q']);
  });
});

describe('tree', () => {
  const sym = (
    name: string,
    size: number,
    section: string,
    region: string,
    source_file: string,
  ): ReportSymbolRow => ({
    name,
    full_name: '',
    address: 0,
    size,
    type: 'FUNC',
    binding: 'GLOBAL',
    section,
    region,
    source_file,
    source_line: 0,
    archive: source_file ? '' : 'libc.a',
    object_file: source_file ? 'x.o' : 'memcpy.o',
  });
  const symbols = [
    sym('main', 100, '.text', 'FLASH', 'src/app/main.c'),
    sym('helper', 30, '.text', 'FLASH', 'src/app/util.c'),
    sym('memcpy', 50, '.text', 'FLASH', ''),
    sym('buf', 400, '.bss', 'RAM', 'src/app/main.c'),
  ];

  it('adds sizes up from symbols through files and directories, largest first', () => {
    const tree = buildTree(symbols, 'source', true);
    expect([tree.size, tree.symbols]).toEqual([580, 4]);
    expect(tree.children!.map((c) => [c.name, c.size])).toEqual([
      ['RAM', 400],
      ['FLASH', 180],
    ]);
    const text = tree.children![1]!.children![0]!;
    expect(text.children!.map((c) => [c.kind, c.name, c.size])).toEqual([
      ['directory', 'src', 130],
      ['file', '(unknown)', 50],
    ]);
    const app = text.children![0]!.children![0]!;
    expect(app.children!.map((c) => [c.name, c.children![0]!.name])).toEqual([
      ['main.c', 'main'],
      ['util.c', 'helper'],
    ]);
  });

  it('groups by archive and object, and stops above symbols on request', () => {
    const text = buildTree(symbols, 'object', false).children![1]!.children![0]!;
    expect(text.children!.map((c) => [c.kind, c.name, c.size])).toEqual([
      ['archive', '(unknown)', 130],
      ['archive', 'libc.a', 50],
    ]);
    expect(text.children![1]!.children).toEqual([
      { name: 'memcpy.o', kind: 'object', size: 50, symbols: 1 },
    ]);
  });
});

describe('csv', () => {
  it('quotes fields with commas, quotes and line breaks', () => {
    const rows = [
      { a: 'plain', b: 'x,y' },
      { a: 'say "hi"', b: 'two\nlines' },
      { a: null, b: 3 },
    ];
    expect(toCsv(['a', 'b'], rows as never)).toBe(
      'a,b\r\nplain,"x,y"\r\n"say ""hi""","two\nlines"\r\n,3\r\n',
    );
  });

  it('keeps cells that start like a formula from being evaluated, numbers excepted', () => {
    const rows = [
      { a: '=HYPERLINK("http://evil","x")', b: -12 },
      { a: '+1+1', b: '-2' },
      { a: '@SUM(A1)', b: '\tcmd' },
      { a: '\r=1', b: 'fn-ok' },
    ];
    expect(toCsv(['a', 'b'], rows as never)).toBe(
      'a,b\r\n' +
        `"'=HYPERLINK(""http://evil"",""x"")",-12\r\n` +
        "'+1+1,'-2\r\n" +
        "'@SUM(A1),'\tcmd\r\n" +
        `"'\r=1",fn-ok\r\n`,
    );
  });
});
