/**
 * Tokens of a scatter file (after preprocessing, when the file asks for it). Comments are `;` or
 * `//` to the end of the line and `/* … *\/`. Words are broad (`.ANY`, `InRoot$$Sections`,
 * `.cy_app_signature`) and every token records whether whitespace precedes it: armlink separates a
 * region's base address from its size by whitespace only (`ARM_LIB_STACK 0x20008000 EMPTY -0x400`).
 */
import type { SourcePosition } from '../linker/errors.js';
import { ScatterError } from './errors.js';

export type ScatterTokenKind = 'word' | 'number' | 'string' | 'punct' | 'end';

export interface ScatterToken {
  kind: ScatterTokenKind;
  text: string;
  space: boolean;
  position: SourcePosition;
}

export interface SourceLine {
  text: string;
  file: string;
  line: number;
}

const PUNCT2 = ['<=', '>=', '==', '!=', '&&', '||', '<<', '>>'];
const PUNCT1 = '{}(),+-*/%~!<>?:&|^=';

export function tokenizeScatter(lines: SourceLine[]): ScatterToken[] {
  const tokens: ScatterToken[] = [];
  let inComment: SourcePosition | undefined;
  for (const { text, file, line } of lines) {
    let space = true;
    let i = 0;
    const at = (column: number): SourcePosition => ({ file, line, column: column + 1 });
    while (i < text.length) {
      if (inComment) {
        const end = text.indexOf('*/', i);
        if (end < 0) break;
        inComment = undefined;
        i = end + 2;
        space = true;
        continue;
      }
      const c = text[i]!;
      if (/\s/.test(c)) {
        space = true;
        i++;
        continue;
      }
      if (c === ';' || text.startsWith('//', i)) break;
      if (text.startsWith('/*', i)) {
        inComment = at(i);
        i += 2;
        continue;
      }
      const start = i;
      let kind: ScatterTokenKind;
      if (/[0-9]/.test(c)) {
        const match = /^(0[xX][0-9A-Fa-f]+|[0-9]+)/.exec(text.slice(i))!;
        i += match[0].length;
        kind = 'number';
      } else if (/[A-Za-z_.$]/.test(c)) {
        while (i < text.length && /[A-Za-z0-9_.$]/.test(text[i]!)) i++;
        kind = 'word';
      } else if (c === '"') {
        const end = text.indexOf('"', i + 1);
        if (end < 0) throw new ScatterError('unterminated string', at(i));
        i = end + 1;
        kind = 'string';
      } else if (PUNCT2.some((p) => text.startsWith(p, i))) {
        i += 2;
        kind = 'punct';
      } else if (PUNCT1.includes(c)) {
        i++;
        kind = 'punct';
      } else {
        throw new ScatterError(`unexpected character '${c}'`, at(i));
      }
      tokens.push({ kind, text: text.slice(start, i), space, position: at(start) });
      space = false;
    }
  }
  if (inComment) throw new ScatterError('unterminated /* comment', inComment);
  const last = lines[lines.length - 1];
  tokens.push({
    kind: 'end',
    text: '',
    space: true,
    position: { file: last?.file ?? '', line: last?.line ?? 1, column: 1 },
  });
  return tokens;
}
