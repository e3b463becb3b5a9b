import { describe, expect, it } from '@jest/globals';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  decodeRecord,
  fullStoredForm,
  headerOf,
  scanJsonUpload,
  storedForm,
  type StoredForm,
} from '@memtrail/symbol-blocks';
import { seededRandom } from '@memtrail/testing/random';

const pick = <T>(rnd: () => number, values: readonly T[]): T =>
  values[Math.floor(rnd() * values.length)]!;

// Names as toolchains and users write them: C++ and Rust symbols, statics, UTF-8, characters
// JSON must escape, and lone surrogates a JavaScript client may send escaped.
const NAMES = [
  'main',
  'init',
  '_ZN4core3fmt5write17h0a1b2c3d4e5f6a7bE',
  'operator new(unsigned int)',
  'buf.0',
  '__func__.1',
  'tête',
  'ünïcødé_ß',
  '日本語',
  'emoji_😀',
  'quote"d',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  '\u0001ctl',
  'nul\u0000x',
  '\ud800lone',
  'slash/',
  '\u2028sep',
];
const SECTIONS = ['.text', '.text', '.rodata', '.data', '.bss', '.ccm"ram', '', 'ñ.sec'];
const FILES = ['src/a.c', 'src/a.c', 'src/b.cpp', '/build/ci/src/c.c', 'ü/d.c', 'we"ird\\f.c'];

/** A symbol as one of the CLIs (or a hand-written client) might send it. */
function symbol(rnd: () => number, i: number): Record<string, unknown> {
  const s: Record<string, unknown> = {
    name: rnd() < 0.3 ? pick(rnd, NAMES) : `s${i}_${pick(rnd, NAMES)}`,
    address:
      rnd() < 0.05 ? 2 ** 51 + 2 * Math.floor(rnd() * 1000) : Math.floor(rnd() * 2 ** 20) * 2,
    size: rnd() < 0.05 ? 0 : Math.floor(rnd() * 400),
  };
  const optional: [string, () => unknown][] = [
    ['type', () => pick(rnd, ['FUNC', 'OBJECT', 'NOTYPE', '', null])],
    ['binding', () => pick(rnd, ['GLOBAL', 'LOCAL', 'WEAK', null])],
    ['visibility', () => pick(rnd, ['DEFAULT', 'HIDDEN', null])],
    ['section', () => pick(rnd, [...SECTIONS, null])],
    ['source_file', () => pick(rnd, [...FILES, '', null])],
    ['source_line', () => pick(rnd, [0, 1, 42, 2 ** 32 - 1, null])],
    ['archive', () => pick(rnd, ['libc.a', '', null])],
    ['object_file', () => pick(rnd, ['a.o', 'sub/b.o', null])],
    ['full_name', () => pick(rnd, ['ns::f()', 'tête()', '', null])],
    ['extra', () => pick(rnd, [1.5e-3, -2, true, false, null, { a: [1, { b: 'x' }] }, [], 'x'])],
  ];
  for (const [key, value] of optional) if (rnd() < 0.7) s[key] = value();
  // Keys in any order.
  return Object.fromEntries(Object.entries(s).sort(() => rnd() - 0.5));
}

function envelope(rnd: () => number, count: number): UploadEnvelope {
  return {
    metadata: {
      git: { commit_hash: 'ab'.repeat(20), branch_name: 'main', commit_message: 'fix "x"\n' },
      target_name: 'board',
      analysis_version: '1.2.9',
    },
    memory_analysis: {
      file_path: 'fw.elf',
      memory_layout: {
        FLASH: {
          address: 0,
          limit_size: 2 ** 21,
          used_size: 1000,
          type: 'FLASH',
          sections: [{ name: '.text', address: 0, size: 900, type: 'code' }],
        },
        RAM: { address: 2 ** 20, limit_size: 2 ** 20, used_size: 10, type: 'RAM' },
      },
      symbols: Array.from({ length: count }, (_, i) => symbol(rnd, i)),
    },
  } as unknown as UploadEnvelope;
}

/** JSON as Python's json.dumps writes it by default (", " and ": "), and other layouts. */
const layouts: [string, (value: unknown) => string][] = [
  ['compact', (value) => JSON.stringify(value)],
  ['indented', (value) => JSON.stringify(value, null, 2)],
  [
    'python',
    (value) =>
      JSON.stringify(value, null, 1)
        .replace(/\n */g, ' ')
        .replace(/([[{]) /g, '$1')
        .replace(/ ([\]}])/g, '$1'),
  ],
  // Non-ASCII escaped, as json.dumps' default ensure_ascii writes it.
  [
    'ascii',
    (value) =>
      JSON.stringify(value).replace(
        /[\u007f-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
  ],
];

const comparable = (form: StoredForm) => ({
  header: form.header.toString('base64'),
  record: decodeRecord(form.record!),
  blocks: form.blocks.map((b) => [b.hash, b.canonical.toString('base64'), b.symbolCount]),
});

describe('JSON uploads read from their bytes', () => {
  it.each(layouts)(
    'give the envelope, blocks and record of JSON.parse and buildVersion (%s)',
    (_, write) => {
      for (let seed = 1; seed <= 12; seed++) {
        const sent = envelope(seededRandom(seed), seed * 37);
        const bytes = Buffer.from(write(sent));
        const parsed = JSON.parse(bytes.toString('utf8')) as UploadEnvelope;
        const scanned = scanJsonUpload(bytes);
        expect(scanned).not.toBeNull();
        expect(scanned!.envelope).toEqual(headerOf(parsed));
        expect(scanned!.columns.count).toBe(parsed.memory_analysis.symbols!.length);
        expect(comparable(fullStoredForm(scanned!.envelope, scanned!.columns))).toEqual(
          comparable(storedForm(parsed, 'full')),
        );
      }
    },
  );

  it('take the last of repeated keys, as JSON.parse does', () => {
    const text =
      '{"metadata":{},"memory_analysis":{"memory_layout":{},"symbols":[' +
      '{"name":"a","address":4,"size":2,"size":8,"name":"b","type":"FUNC","type":null}]}}';
    const scanned = scanJsonUpload(Buffer.from(text))!;
    const parsed = JSON.parse(text) as UploadEnvelope;
    expect(comparable(fullStoredForm(scanned.envelope, scanned.columns))).toEqual(
      comparable(storedForm(parsed, 'full')),
    );
    expect(scanned.columns.name(0)).toBe('b');
  });

  // Each is either not JSON, or JSON whose symbols the upload's checks refuse, or JSON written
  // in a way this reader leaves to JSON.parse: the caller then decodes it the usual way.
  const wrap = (symbols: string, before = '{"metadata":{},"memory_analysis":{"symbols":') =>
    `${before}${symbols}}}`;
  it.each([
    ['a trailing comma', wrap('[{"name":"a","address":1,"size":2},]')],
    ['a bad escape', wrap('[{"name":"a\\q","address":1,"size":2}]')],
    ['a short \\u escape', wrap('[{"name":"a\\u12","address":1,"size":2}]')],
    ['a raw control character', wrap('[{"name":"a\u001f","address":1,"size":2}]')],
    ['a leading zero', wrap('[{"name":"a","address":01,"size":2}]')],
    ['a fraction', wrap('[{"name":"a","address":1.0,"size":2}]')],
    ['an exponent', wrap('[{"name":"a","address":1e3,"size":2}]')],
    ['a negative size', wrap('[{"name":"a","address":1,"size":-2}]')],
    ['an address of 2^64', wrap('[{"name":"a","address":18446744073709551616,"size":2}]')],
    ['a line of 2^32', wrap('[{"name":"a","address":1,"size":2,"source_line":4294967296}]')],
    ['no name', wrap('[{"address":1,"size":2}]')],
    ['a null name', wrap('[{"name":null,"address":1,"size":2}]')],
    ['a number as a name', wrap('[{"name":5,"address":1,"size":2}]')],
    ['a number as a section', wrap('[{"name":"a","address":1,"size":2,"section":5}]')],
    ['no size', wrap('[{"name":"a","address":1}]')],
    ['a symbol that is not an object', wrap('[["a",1,2]]')],
    ['symbols that are not an array', wrap('{}')],
    ['an escaped key', wrap('[{"na\\u006de":"a","address":1,"size":2}]')],
    ['a bad number elsewhere', wrap('[{"name":"a","address":1,"size":2,"x":1.}]')],
    ['a bad literal elsewhere', wrap('[{"name":"a","address":1,"size":2,"x":nul}]')],
    ['two lists of symbols', wrap('[],"symbols":[]')],
    ['no symbols', '{"metadata":{},"memory_analysis":{"memory_layout":{}}}'],
    ['text after the envelope', `${wrap('[]')} x`],
    ['an envelope cut short', wrap('[{"name":"a","address":1').slice(0, -2)],
    ['a byte-order mark', `\ufeff${wrap('[]')}`],
    ['a top-level array', '[]'],
  ])('leave to JSON.parse an upload with %s', (_, text) => {
    expect(scanJsonUpload(Buffer.from(text))).toBeNull();
  });

  it('reads an empty list of symbols', () => {
    const scanned = scanJsonUpload(
      Buffer.from('{"memory_analysis":{"symbols":[ ]},"metadata":{}}'),
    );
    expect(scanned?.columns.count).toBe(0);
    expect(scanned?.envelope).toEqual({ memory_analysis: { symbols: [] }, metadata: {} });
  });
});
