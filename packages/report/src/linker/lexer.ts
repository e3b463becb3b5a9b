import { LinkerScriptError, type SourcePosition } from './errors.js';
import { matchPlainNumber, matchSuffixedNumber } from './numbers.js';

/**
 * ld's lexer changes state with the grammar: names in expressions stop at `-` and `+` but may
 * contain `/`; names at statement level (section names, wildcards, file names) may contain `-`,
 * `*`, `?` and `[]`; MEMORY attributes treat `!` as a separate token. The parser therefore asks
 * for each token in a mode.
 */
export type LexMode = 'expr' | 'script' | 'memory';

export type Token =
  | {
      kind: 'name';
      text: string;
      quoted: boolean;
      position: SourcePosition;
      offset: number;
      end: number;
    }
  | {
      kind: 'number';
      value: bigint;
      text: string;
      position: SourcePosition;
      offset: number;
      end: number;
    }
  | { kind: 'op'; text: string; position: SourcePosition; offset: number; end: number }
  | { kind: 'eof'; text: ''; position: SourcePosition; offset: number; end: number };

const EXPR_OPERATORS = [
  '<<=',
  '>>=',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '&=',
  '|=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '!',
  '~',
  '<',
  '>',
  '?',
  ':',
  ';',
  ',',
  '(',
  ')',
  '{',
  '}',
  '=',
];
const SCRIPT_OPERATORS = [
  '<<=',
  '>>=',
  '+=',
  '-=',
  '*=',
  '/=',
  '&=',
  '|=',
  '=',
  ';',
  ',',
  '(',
  ')',
  '{',
  '}',
  ':',
  '>',
  '<',
];
const MEMORY_OPERATORS = ['!', '(', ')', ':', '=', ',', ';', '{', '}'];

const EXPR_NAME = /^[A-Za-z_.$\\][A-Za-z0-9_.$/\\~]*/;
const SCRIPT_NAME = /^[A-Za-z0-9_.$/\\~*?[\]][A-Za-z0-9_.$/\\~*?[\]\-+!^:]*/;
const MEMORY_NAME = /^[A-Za-z0-9_.$\\~][A-Za-z0-9_.$\\~\-+]*/;

/** Directives only the C preprocessor understands; GNU ld reads such lines as comments. */
const CPP_DIRECTIVE = /^#\s*(include|if|ifdef|ifndef|elif|else|endif|define|undef|error|pragma)\b/;

/** Told about each C preprocessor directive line the lexer passes over as a comment. */
export type DirectiveListener = (directive: string, position: SourcePosition) => void;

export class Lexer {
  private readonly lineStarts: number[] = [0];
  private offset = 0;
  private cached: { mode: LexMode; offset: number; token: Token } | undefined;

  constructor(
    readonly text: string,
    readonly file: string,
    private readonly onDirective?: DirectiveListener,
  ) {
    for (let i = 0; i < text.length; i++)
      if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  positionAt(offset: number): SourcePosition {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { file: this.file, line: low + 1, column: offset - this.lineStarts[low]! + 1 };
  }

  peek(mode: LexMode): Token {
    if (this.cached && this.cached.mode === mode && this.cached.offset === this.offset)
      return this.cached.token;
    const token = this.scan(mode);
    this.cached = { mode, offset: this.offset, token };
    return token;
  }

  next(mode: LexMode): Token {
    const token = this.peek(mode);
    this.offset = token.end;
    return token;
  }

  seek(offset: number): void {
    this.offset = offset;
  }

  /**
   * Offset of the bracket closing the one at `start`, skipping comments and quoted strings, so
   * that input section descriptions and PHDRS/VERSION blocks can be passed over without a grammar.
   */
  findClosing(start: number, open: string, close: string): number {
    let depth = 0;
    const text = this.text;
    for (let i = start; i < text.length; i++) {
      const char = text[i]!;
      if (char === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) break;
        i = end + 1;
      } else if (char === '"') {
        const end = text.indexOf('"', i + 1);
        if (end < 0) break;
        i = end;
      } else if (char === open) {
        depth++;
      } else if (char === close && --depth === 0) {
        return i;
      }
    }
    throw new LinkerScriptError(
      'syntax',
      `syntax error: '${open}' is never closed`,
      this.positionAt(start),
    );
  }

  private skipTrivia(): void {
    const text = this.text;
    while (this.offset < text.length) {
      const char = text[this.offset]!;
      if (
        char === ' ' ||
        char === '\t' ||
        char === '\n' ||
        char === '\r' ||
        char === '\f' ||
        char === '\v'
      ) {
        this.offset++;
      } else if (char === '/' && text[this.offset + 1] === '*') {
        const close = text.indexOf('*/', this.offset + 2);
        if (close < 0) {
          throw new LinkerScriptError(
            'syntax',
            'unterminated /* comment',
            this.positionAt(this.offset),
          );
        }
        this.offset = close + 2;
      } else if (char === '#') {
        // ld's lexer reads `#` to the end of the line as a comment, preprocessor lines included.
        const lineEnd = text.indexOf('\n', this.offset);
        const end = lineEnd < 0 ? text.length : lineEnd;
        const directive = this.onDirective && CPP_DIRECTIVE.exec(text.slice(this.offset, end));
        if (directive) this.onDirective!(directive[1]!, this.positionAt(this.offset));
        this.offset = end;
      } else {
        break;
      }
    }
  }

  private scan(mode: LexMode): Token {
    this.skipTrivia();
    const offset = this.offset;
    const position = this.positionAt(offset);
    if (offset >= this.text.length) return { kind: 'eof', text: '', position, offset, end: offset };
    const rest = this.text.slice(offset, offset + 256);
    const char = rest[0]!;

    if (char === '"') {
      const close = this.text.indexOf('"', offset + 1);
      if (close < 0) throw new LinkerScriptError('syntax', 'unterminated quoted string', position);
      return {
        kind: 'name',
        text: this.text.slice(offset + 1, close),
        quoted: true,
        position,
        offset,
        end: close + 1,
      };
    }

    if (mode === 'expr') {
      const plain = matchPlainNumber(rest, position);
      const suffixed = matchSuffixedNumber(rest, position);
      const name = cutAtComment(EXPR_NAME.exec(rest)?.[0]);
      const best = Math.max(plain?.length ?? 0, suffixed?.length ?? 0, name?.length ?? 0);
      if (best > 0) {
        // Longest match wins; on a tie ld's rule order decides: plain number, suffixed, name.
        if (plain && plain.length === best)
          return this.numberToken(plain.value, offset, best, position);
        if (suffixed && suffixed.length === best)
          return this.numberToken(suffixed.value, offset, best, position);
        return { kind: 'name', text: name!, quoted: false, position, offset, end: offset + best };
      }
    }

    const operators =
      mode === 'expr' ? EXPR_OPERATORS : mode === 'script' ? SCRIPT_OPERATORS : MEMORY_OPERATORS;
    const operator = operators.find((op) => rest.startsWith(op));
    if (operator)
      return { kind: 'op', text: operator, position, offset, end: offset + operator.length };

    if (mode !== 'expr') {
      const name = cutAtComment((mode === 'script' ? SCRIPT_NAME : MEMORY_NAME).exec(rest)?.[0]);
      if (name)
        return {
          kind: 'name',
          text: name,
          quoted: false,
          position,
          offset,
          end: offset + name.length,
        };
    }

    if (char === '^') {
      throw new LinkerScriptError('syntax', "GNU ld has no '^' (exclusive or) operator", position);
    }
    throw new LinkerScriptError('syntax', `unexpected character '${char}'`, position);
  }

  private numberToken(
    value: bigint,
    offset: number,
    length: number,
    position: SourcePosition,
  ): Token {
    return {
      kind: 'number',
      value,
      text: this.text.slice(offset, offset + length),
      position,
      offset,
      end: offset + length,
    };
  }
}

function cutAtComment(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const comment = name.indexOf('/*');
  const cut = comment >= 0 ? name.slice(0, comment) : name;
  return cut.length > 0 ? cut : undefined;
}
