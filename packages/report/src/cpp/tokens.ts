/**
 * Preprocessing tokens (C11 6.4) of a whole file, grouped in logical lines: backslash-newlines are
 * spliced first and comments become whitespace, so a block comment spanning lines joins them into
 * one logical line, as in a real C preprocessor. Quotes without their closing quote are kept as a
 * lone `other` token and lexing goes on (clang's -E behaviour), because scatter files carry `;`
 * comments full of apostrophes.
 */
import type { SourcePosition } from '../linker/errors.js';
import { PreprocessError } from './errors.js';

export type TokenKind = 'ident' | 'number' | 'string' | 'char' | 'punct' | 'other';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Whitespace or a comment comes before it. */
  space: boolean;
  line: number;
  column: number;
  /** Macros that must not expand this token again (the hide set of the C standard's rescanning). */
  hide?: ReadonlySet<string>;
}

export interface LogicalLine {
  tokens: Token[];
  /** Physical line where it starts (1-based). */
  line: number;
  /** Physical lines it covers (more than 1 after splices or multi-line comments). */
  span: number;
}

const PUNCTUATORS = [
  '%:%:',
  '...',
  '<<=',
  '>>=',
  '->',
  '++',
  '--',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '*=',
  '/=',
  '%=',
  '+=',
  '-=',
  '&=',
  '^=',
  '|=',
  '##',
  '<:',
  ':>',
  '<%',
  '%>',
  '%:',
];
const SINGLE = new Set('[](){}.&*+-~!/%<>^|?:;=,#');

function isIdentStart(c: string): boolean {
  return /[A-Za-z_$]/.test(c);
}

function isIdentPart(c: string): boolean {
  return /[A-Za-z0-9_$]/.test(c);
}

/** Text with backslash-newlines removed, and the physical line and column of every kept character. */
function splice(text: string): { chars: string; lines: Int32Array; columns: Int32Array } {
  const lines = new Int32Array(text.length + 1);
  const columns = new Int32Array(text.length + 1);
  let out = '';
  let line = 1;
  let column = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\r' ? 2 : 1;
      line++;
      column = 1;
      continue;
    }
    lines[out.length] = line;
    columns[out.length] = column;
    out += c;
    if (c === '\n') {
      line++;
      column = 1;
    } else {
      column++;
    }
  }
  lines[out.length] = line;
  columns[out.length] = column;
  return { chars: out, lines, columns };
}

/** Splits a file into logical lines of preprocessing tokens. */
export function tokenizeFile(text: string, file: string): LogicalLine[] {
  const { chars, lines, columns } = splice(text);
  const result: LogicalLine[] = [];
  let tokens: Token[] = [];
  let start = 1;
  let space = false;
  const at = (i: number): SourcePosition => ({ file, line: lines[i]!, column: columns[i]! });
  let i = 0;
  const push = (kind: TokenKind, end: number): void => {
    tokens.push({ kind, text: chars.slice(i, end), space, line: lines[i]!, column: columns[i]! });
    space = false;
    i = end;
  };
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === '\n') {
      result.push({ tokens, line: start, span: lines[i]! - start + 1 });
      tokens = [];
      space = false;
      i++;
      start = lines[i]!;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      space = true;
      i++;
      continue;
    }
    if (c === '/' && chars[i + 1] === '*') {
      const end = chars.indexOf('*/', i + 2);
      if (end < 0) throw new PreprocessError('unterminated /* comment', at(i));
      space = true;
      i = end + 2;
      continue;
    }
    if (c === '/' && chars[i + 1] === '/') {
      const end = chars.indexOf('\n', i);
      space = true;
      i = end < 0 ? chars.length : end;
      continue;
    }
    if (isIdentStart(c)) {
      let end = i + 1;
      while (end < chars.length && isIdentPart(chars[end]!)) end++;
      push('ident', end);
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(chars[i + 1] ?? ''))) {
      let end = i + 1;
      while (end < chars.length) {
        const d = chars[end]!;
        if (/[eEpP]/.test(d) && /[+-]/.test(chars[end + 1] ?? '')) end += 2;
        else if (/[A-Za-z0-9_.]/.test(d)) end++;
        else break;
      }
      push('number', end);
      continue;
    }
    if (c === '"' || c === "'") {
      let end = i + 1;
      while (end < chars.length && chars[end] !== c && chars[end] !== '\n') {
        end += chars[end] === '\\' ? 2 : 1;
      }
      if (end < chars.length && chars[end] === c) push(c === '"' ? 'string' : 'char', end + 1);
      else push('other', i + 1);
      continue;
    }
    const punct = PUNCTUATORS.find((p) => chars.startsWith(p, i));
    if (punct) push('punct', i + punct.length);
    else push(SINGLE.has(c) ? 'punct' : 'other', i + 1);
  }
  if (tokens.length > 0) {
    result.push({ tokens, line: start, span: lines[chars.length]! - start + 1 });
  }
  return result;
}

/** Tokens of a short text (a macro body from `--def`, a pasted token), all on one line. */
export function tokenizeText(text: string, file: string): Token[] {
  return tokenizeFile(text.replace(/\n/g, ' '), file).flatMap((line) => line.tokens);
}
