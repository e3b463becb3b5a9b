/**
 * Reads an armlink scatter file: runs the preprocessor when the first line asks for it
 * (`#! armcc -E`, `#! armclang -E …`), parses the regions and resolves their addresses.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parsePreprocessorLine, predefinedMacros, preprocess } from '../cpp/index.js';
import type { RegionKind } from '../linker/attributes.js';
import type { SourcePosition } from '../linker/errors.js';
import type { InputSectionDescription } from './ast.js';
import { ScatterError } from './errors.js';
import { scatterRegionKinds } from './kinds.js';
import { tokenizeScatter, type SourceLine } from './lexer.js';
import { parseScatter } from './parser.js';
import { resolveScatter, type ScatterImage, type ScatterWarning } from './resolve.js';

export interface ScatterOptions {
  /** `--def NAME=VALUE`: -D definitions added after those of the `#!` line. */
  definitions?: Array<[name: string, value: string]>;
  /** `-L` directories, searched for #include after the `#!` line's -I directories. */
  searchPaths?: string[];
  /** The link's working directory: relative paths resolve here (default process.cwd()). */
  cwd?: string;
  /** The linked image, for values that depend on the size of regions' content. */
  image?: ScatterImage;
}

export interface ScatterRegion {
  name: string;
  type: 'load' | 'execution';
  /** The load region of an execution region. */
  loadRegion?: string;
  /** Undefined when it cannot be known without the linked image (`unresolved` says why). */
  origin?: number;
  /** The maximum size; undefined when the file gives none (then `unresolved` says so). */
  length?: number;
  unresolved?: string;
  /** For a load region: the end of its image, known with the linked image. */
  imageLimit?: number;
  /** Region attributes as written: `EMPTY`, `UNINIT`, `ALIGN 8`… */
  attributes: string[];
  kind: RegionKind;
  inputs: InputSectionDescription[];
  position: SourcePosition;
}

export interface ScatterModel {
  /** Load regions in file order, each followed by its execution regions. */
  regions: ScatterRegion[];
  /** The file and everything it #included. */
  files: string[];
  warnings: ScatterWarning[];
}

const DIRECTIVE = /^\s*#\s*(define|undef|include|if|ifdef|ifndef|elif|else|endif|error)\b/m;

function sourceLines(
  file: string,
  text: string,
  options: ScatterOptions,
  warnings: ScatterWarning[],
): { lines: SourceLine[]; files: string[] } {
  const cwd = options.cwd ?? process.cwd();
  const [first = '', ...rest] = text.split(/\r?\n/);
  const command = parsePreprocessorLine(first);
  if (!command && !DIRECTIVE.test(text)) {
    return {
      lines: text.split(/\r?\n/).map((t, i) => ({ text: t, file, line: i + 1 })),
      files: [file],
    };
  }
  if (!command) {
    warnings.push({
      message:
        "the file has preprocessor directives but no '#! armcc -E' or '#! armclang -E' first line, so armlink would not preprocess it; reading it preprocessed",
      position: { file, line: 1, column: 1 },
    });
  }
  const tool = command ?? { tool: 'armclang', includeDirs: [], definitions: [], cmse: false };
  const result = preprocess(file, command ? ['', ...rest].join('\n') : text, {
    includeDirs: [...tool.includeDirs, ...(options.searchPaths ?? [])],
    definitions: [...predefinedMacros(tool), ...tool.definitions, ...(options.definitions ?? [])],
    cwd,
  });
  warnings.push(...result.warnings);
  return { lines: result.lines, files: result.files };
}

function toNumber(value: bigint, what: string, position: SourcePosition): number {
  if (value < 0n) throw new ScatterError(`the ${what} comes out negative (${value})`, position);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ScatterError(`the ${what} 0x${value.toString(16)} is too large`, position);
  }
  return Number(value);
}

export function loadScatterFile(path: string, options: ScatterOptions = {}): ScatterModel {
  const cwd = options.cwd ?? process.cwd();
  const text = readFileSync(resolve(cwd, path), 'utf8');
  return readScatter(path, text, options);
}

/** Reads scatter-file text (`path` names it in positions and resolves its #includes). */
export function readScatter(
  path: string,
  text: string,
  options: ScatterOptions = {},
): ScatterModel {
  const warnings: ScatterWarning[] = [];
  const { lines, files } = sourceLines(path, text, options, warnings);
  const ast = parseScatter(tokenizeScatter(lines));
  const resolved = resolveScatter(ast, options.image, warnings);
  const kinds = scatterRegionKinds(resolved);
  const regions = resolved.map((region): ScatterRegion => ({
    name: region.name,
    type: region.type,
    ...(region.loadRegion !== undefined && { loadRegion: region.loadRegion }),
    ...(region.origin !== undefined && {
      origin: toNumber(region.origin, `address of ${region.name}`, region.position),
    }),
    ...(region.length !== undefined && {
      length: toNumber(region.length, `size of ${region.name}`, region.position),
    }),
    ...(region.unresolved !== undefined && { unresolved: region.unresolved }),
    ...(region.imageLimit !== undefined && {
      imageLimit: toNumber(region.imageLimit, `image end of ${region.name}`, region.position),
    }),
    attributes: region.attributes.map((a) =>
      a.argument ? `${a.keyword} ${a.argument.text}` : a.keyword,
    ),
    kind: kinds.get(region.name)!,
    inputs: region.inputs,
    position: region.position,
  }));
  return { regions, files, warnings };
}
