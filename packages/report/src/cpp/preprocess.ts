/**
 * A C preprocessor (C11 6.10) for scatter files, as armlink runs `armcc -E` / `armclang -E` on a
 * file whose first line is `#!`: #define/#undef, #include "…" and <…>, #if/#ifdef/#ifndef/#elif/
 * #else/#endif with `defined`, #error/#warning/#pragma/#line. The output keeps one line per input
 * line, and every output line knows the file and line it came from, so later errors point there.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { SourcePosition } from '../linker/errors.js';
import { evaluateCondition } from './expression.js';
import { PreprocessError, type PreprocessWarning } from './errors.js';
import { MacroExpander } from './macros.js';
import { tokenizeFile, tokenizeText, type LogicalLine, type Token } from './tokens.js';

export interface PreprocessOptions {
  /** Directories searched for #include after the including file's own directory. */
  includeDirs: string[];
  /** -D and -U in order (a value of undefined undefines). */
  definitions: Array<[name: string, value: string | undefined]>;
  /** Relative include directories and file names resolve here. */
  cwd: string;
}

export interface OutputLine {
  text: string;
  file: string;
  line: number;
}

export interface PreprocessResult {
  lines: OutputLine[];
  /** Every file read, the main one first. */
  files: string[];
  warnings: PreprocessWarning[];
}

const MAX_INCLUDE_DEPTH = 64;

interface Conditional {
  /** This group's lines are kept. */
  active: boolean;
  /** A group of this #if chain was already kept. */
  taken: boolean;
  /** The enclosing group is kept. */
  outer: boolean;
  sawElse: boolean;
  position: SourcePosition;
}

function render(tokens: Token[]): string {
  return tokens.map((t, i) => (i > 0 && t.space ? ` ${t.text}` : t.text)).join('');
}

export function preprocess(
  file: string,
  text: string,
  options: PreprocessOptions,
): PreprocessResult {
  const lines: OutputLine[] = [];
  const files: string[] = [];
  const warnings: PreprocessWarning[] = [];
  const once = new Set<string>();
  let current: SourcePosition = { file, line: 1, column: 1 };
  const macros = new MacroExpander(() => current);
  const commandLine: SourcePosition = { file: '<command line>', line: 1, column: 1 };
  for (const [name, value] of options.definitions) {
    if (value === undefined) macros.undefine(name);
    else {
      macros.define({ name, body: tokenizeText(value, commandLine.file), position: commandLine });
    }
  }

  const warn = (message: string, position: SourcePosition): void => {
    warnings.push({ message, position });
  };

  const findInclude = (name: string, angled: boolean, from: string): string | undefined => {
    if (isAbsolute(name)) return existsSync(name) ? name : undefined;
    const dirs = [...(angled ? [] : [dirname(resolve(options.cwd, from))]), ...options.includeDirs];
    return dirs
      .map((dir) => resolve(options.cwd, dir, name))
      .find((path) => existsSync(path) && statSync(path).isFile());
  };

  const run = (path: string, source: string, depth: number): void => {
    files.push(path);
    const logical = tokenizeFile(source, path);
    const stack: Conditional[] = [];
    const active = (): boolean => stack.every((c) => c.active);
    let lineOffset = 0;
    let index = 0;
    const emit = (text: string, line: LogicalLine): void => {
      lines.push({ text, file: path, line: line.line + lineOffset });
      for (let k = 1; k < line.span; k++) {
        lines.push({ text: '', file: path, line: line.line + lineOffset + k });
      }
    };
    const isDirective = (line: LogicalLine | undefined): boolean =>
      line?.tokens[0]?.kind === 'punct' && line.tokens[0].text === '#';

    while (index < logical.length) {
      const line = logical[index++]!;
      current = { file: path, line: line.line + lineOffset, column: 1 };
      if (!isDirective(line)) {
        if (!active()) {
          emit('', line);
          continue;
        }
        const consumed: LogicalLine[] = [];
        const more = (): Token[] | undefined => {
          const next = logical[index];
          if (!next || isDirective(next)) return undefined;
          index++;
          consumed.push(next);
          return next.tokens.map((t, k) => (k === 0 ? { ...t, space: true } : t));
        };
        emit(render(macros.expand(line.tokens, more)), line);
        for (const extra of consumed) emit('', extra);
        continue;
      }
      emit('', line);
      const [, nameToken, ...rest] = line.tokens;
      const at: SourcePosition = {
        file: path,
        line: line.line + lineOffset,
        column: nameToken?.column ?? line.tokens[0]!.column,
      };
      current = at;
      const directive = nameToken?.kind === 'ident' ? nameToken.text : nameToken?.text;
      const conditional = (value: boolean): void => {
        const outer = active();
        stack.push({ active: outer && value, taken: value, outer, sawElse: false, position: at });
      };
      const top = (): Conditional => {
        const entry = stack[stack.length - 1];
        if (!entry) throw new PreprocessError(`#${directive} without #if`, at);
        return entry;
      };
      const name = (): string => {
        if (rest[0]?.kind !== 'ident') {
          throw new PreprocessError(`#${directive} needs a macro name`, at);
        }
        return rest[0].text;
      };

      switch (directive) {
        case 'if':
          conditional(active() ? condition(rest, at) : false);
          continue;
        case 'ifdef':
          conditional(active() ? macros.has(name()) : false);
          continue;
        case 'ifndef':
          conditional(active() ? !macros.has(name()) : false);
          continue;
        case 'elif':
        case 'elifdef':
        case 'elifndef': {
          const entry = top();
          if (entry.sawElse) throw new PreprocessError(`#${directive} after #else`, at);
          if (entry.taken || !entry.outer) {
            entry.active = false;
            continue;
          }
          const value =
            directive === 'elif'
              ? condition(rest, at)
              : macros.has(name()) === (directive === 'elifdef');
          entry.active = value;
          entry.taken = value;
          continue;
        }
        case 'else': {
          const entry = top();
          if (entry.sawElse) throw new PreprocessError('#else after #else', at);
          entry.sawElse = true;
          entry.active = entry.outer && !entry.taken;
          entry.taken = true;
          continue;
        }
        case 'endif':
          top();
          stack.pop();
          continue;
        default:
          break;
      }
      if (!active() || directive === undefined) continue;
      switch (directive) {
        case 'define':
          define(rest, at);
          break;
        case 'undef':
          macros.undefine(name());
          break;
        case 'include':
        case 'include_next': {
          const target = includeTarget(rest, at);
          const found = findInclude(target.name, target.angled, path);
          if (!found) {
            throw new PreprocessError(
              `cannot find include file '${target.name}' (looked in ${[
                ...(target.angled ? [] : [dirname(resolve(options.cwd, path))]),
                ...options.includeDirs,
              ].join(', ')})`,
              at,
            );
          }
          const key = resolve(options.cwd, found);
          if (once.has(key)) break;
          if (depth >= MAX_INCLUDE_DEPTH) {
            throw new PreprocessError(`#include nested more than ${MAX_INCLUDE_DEPTH} levels`, at);
          }
          run(found, readFileSync(key, 'utf8'), depth + 1);
          current = at;
          break;
        }
        case 'error':
          throw new PreprocessError(`#error ${render(rest)}`.trimEnd(), at);
        case 'warning':
          warn(`#warning ${render(rest)}`.trimEnd(), at);
          break;
        case 'pragma':
          if (rest[0]?.text === 'once') once.add(resolve(options.cwd, path));
          break;
        case 'line': {
          const expanded = macros.expand(rest);
          const number = Number(expanded[0]?.text);
          if (!Number.isInteger(number)) {
            throw new PreprocessError('#line needs a line number', at);
          }
          lineOffset = number - line.line - line.span;
          break;
        }
        case 'ident':
        case 'sccs':
          break;
        default:
          if (nameToken?.kind === 'number') break; // `# 12 "file"` line markers
          throw new PreprocessError(`invalid preprocessing directive '#${directive}'`, at);
      }
    }
    const open = stack[stack.length - 1];
    if (open) throw new PreprocessError('#if without #endif', open.position);
  };

  const condition = (tokens: Token[], at: SourcePosition): boolean => {
    const replaced: Token[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token.kind !== 'ident' || token.text !== 'defined') {
        replaced.push(token);
        continue;
      }
      const parenthesized = tokens[i + 1]?.text === '(';
      const operand = tokens[i + (parenthesized ? 2 : 1)];
      if (operand?.kind !== 'ident' || (parenthesized && tokens[i + 3]?.text !== ')')) {
        throw new PreprocessError("'defined' needs a macro name", at);
      }
      replaced.push({ ...token, kind: 'number', text: macros.has(operand.text) ? '1' : '0' });
      i += parenthesized ? 3 : 1;
    }
    return evaluateCondition(macros.expand(replaced), at);
  };

  const define = (tokens: Token[], at: SourcePosition): void => {
    const [nameToken, ...rest] = tokens;
    if (nameToken?.kind !== 'ident') throw new PreprocessError('#define needs a macro name', at);
    let body = rest;
    let params: string[] | undefined;
    if (rest[0]?.text === '(' && !rest[0].space) {
      params = [];
      let k = 1;
      for (;;) {
        const token = rest[k++];
        if (!token) throw new PreprocessError(`missing ')' in macro '${nameToken.text}'`, at);
        if (token.text === ')' && params.length === 0) break;
        if (token.text === '...') params.push('__VA_ARGS__');
        else if (token.kind === 'ident') {
          params.push(token.text);
          if (rest[k]?.text === '...') {
            params[params.length - 1] = '__VA_ARGS__';
            k++;
          }
        } else {
          throw new PreprocessError(`bad parameter list of macro '${nameToken.text}'`, at);
        }
        const separator = rest[k++];
        if (separator?.text === ')') break;
        if (separator?.text !== ',') {
          throw new PreprocessError(`bad parameter list of macro '${nameToken.text}'`, at);
        }
      }
      body = rest.slice(k);
    }
    const previous = macros.define({
      name: nameToken.text,
      ...(params && { params }),
      body: body.map((t, i) => (i === 0 ? { ...t, space: false } : t)),
      position: at,
    });
    if (previous) {
      warn(
        `'${nameToken.text}' redefined (the earlier definition is at ${previous.position.file}:${previous.position.line})`,
        at,
      );
    }
  };

  const includeTarget = (
    tokens: Token[],
    at: SourcePosition,
  ): { name: string; angled: boolean } => {
    const expanded =
      tokens[0]?.kind === 'string' || tokens[0]?.text === '<' ? tokens : macros.expand(tokens);
    const first = expanded[0];
    if (first?.kind === 'string') return { name: first.text.slice(1, -1), angled: false };
    if (first?.text === '<') {
      const close = expanded.findIndex((t) => t.text === '>');
      if (close > 0) {
        return { name: render(expanded.slice(1, close)).replace(/^\s+/, ''), angled: true };
      }
    }
    throw new PreprocessError('#include expects "FILENAME" or <FILENAME>', at);
  };

  run(file, text, 0);
  return { lines, files, warnings };
}
