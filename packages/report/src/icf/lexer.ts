/**
 * Tokens of an IAR linker configuration file (also SEGGER's ICF-like scripts): names, numbers with
 * K/M/G/T/P suffixes, "quoted strings", punctuation; `//` and `/* *\/` comments. Section patterns
 * (`.bss.*`, `*.o`) are rebuilt by the parser from tokens that touch (no whitespace between).
 */
import type { SourcePosition } from '../linker/errors.js';
import { IcfError } from './errors.js';

export type IcfTokenKind = 'name' | 'number' | 'string' | 'punct' | 'end';

export interface IcfToken {
  kind: IcfTokenKind;
  text: string;
  /** For numbers: the value, suffix applied. */
  value?: bigint;
  space: boolean;
  position: SourcePosition;
}

const PUNCT2 = ['<<', '>>', '<=', '>=', '==', '!=', '&&', '||'];
const PUNCT1 = '{}()[],;:=+-*/%<>&^|!~?';
const SUFFIX: Record<string, bigint> = {
  K: 1n << 10n,
  M: 1n << 20n,
  G: 1n << 30n,
  T: 1n << 40n,
  P: 1n << 50n,
};

export function tokenizeIcf(text: string, file: string): IcfToken[] {
  const tokens: IcfToken[] = [];
  let line = 1;
  let lineStart = 0;
  let space = true;
  let i = 0;
  const at = (offset: number): SourcePosition => ({ file, line, column: offset - lineStart + 1 });
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      lineStart = i + 1;
      space = true;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      space = true;
      i++;
      continue;
    }
    if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (text.startsWith('/*', i)) {
      const start = at(i);
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new IcfError('unterminated /* comment', start);
      for (let k = i; k < end; k++) {
        if (text[k] === '\n') {
          line++;
          lineStart = k + 1;
        }
      }
      i = end + 2;
      space = true;
      continue;
    }
    const start = i;
    const position = at(i);
    let token: IcfToken;
    if (/[0-9]/.test(c)) {
      const match = /^(0[xX][0-9A-Fa-f]+|[0-9]+)([KMGTP](?![A-Za-z0-9_]))?/.exec(text.slice(i));
      if (!match || /[A-Za-z0-9_]/.test(text[i + match[0].length] ?? '')) {
        const bad = /^[0-9A-Za-z_]+/.exec(text.slice(i))![0];
        throw new IcfError(`'${bad}' is not a number`, position);
      }
      i += match[0].length;
      token = {
        kind: 'number',
        text: match[0],
        value: BigInt(match[1]!) * (match[2] ? SUFFIX[match[2]]! : 1n),
        space,
        position,
      };
    } else if (/[A-Za-z_$.]/.test(c)) {
      while (i < text.length && /[A-Za-z0-9_$.]/.test(text[i]!)) i++;
      token = { kind: 'name', text: text.slice(start, i), space, position };
    } else if (c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length || text[i] === '\n')
          throw new IcfError('unterminated string', position);
        if (text[i] === '"') {
          if (text[i + 1] !== '"') break;
          i++;
        }
        value += text[i++];
      }
      i++;
      token = { kind: 'string', text: value, space, position };
    } else if (PUNCT2.some((p) => text.startsWith(p, i))) {
      i += 2;
      token = { kind: 'punct', text: text.slice(start, i), space, position };
    } else if (PUNCT1.includes(c)) {
      i++;
      token = { kind: 'punct', text: c, space, position };
    } else {
      throw new IcfError(`unexpected character '${c}'`, position);
    }
    tokens.push(token);
    space = false;
  }
  tokens.push({ kind: 'end', text: '', space: true, position: at(i) });
  return tokens;
}
