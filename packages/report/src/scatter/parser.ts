/**
 * Scatter-file syntax (armlink): load regions `NAME base [attributes] [max_size] { … }` holding
 * execution regions `NAME base [attributes] [length] { input section descriptions }`, and
 * `ScatterAssert(expr)`. Expressions follow C precedence with armlink's AND, OR, LAND and LOR.
 */
import type {
  ExecutionRegionDecl,
  InputSectionDescription,
  LoadRegionDecl,
  RegionAttribute,
  ScatterExpr,
  ScatterFileAst,
} from './ast.js';
import { C_PRECEDENCE } from '../expressions/index.js';
import { ScatterError } from './errors.js';
import type { ScatterToken } from './lexer.js';

/** Region attributes; those listed with `true` take an argument. */
const ATTRIBUTES: Record<string, boolean> = {
  ABSOLUTE: false,
  ALIGN: true,
  ALIGNALL: true,
  ANY_SIZE: true,
  AUTO_OVERLAY: false,
  EMPTY: false,
  FILL: true,
  FIXED: false,
  NOCOMPRESS: false,
  OVERLAY: false,
  PADVALUE: true,
  PI: false,
  PROTECTED: false,
  RELOC: false,
  SORTTYPE: true,
  UNINIT: false,
  ZEROPAD: false,
};

/** armlink's word spellings of C operators. */
const CANONICAL: Record<string, string> = { LOR: '||', LAND: '&&', OR: '|', AND: '&' };

export function parseScatter(tokens: ScatterToken[]): ScatterFileAst {
  let index = 0;
  const peek = (offset = 0): ScatterToken => tokens[Math.min(index + offset, tokens.length - 1)]!;
  const next = (): ScatterToken => tokens[Math.min(index++, tokens.length - 1)]!;
  const fail = (message: string, token: ScatterToken = peek()): never => {
    throw new ScatterError(message, token.position);
  };
  const expect = (text: string, what: string): ScatterToken => {
    const token = peek();
    if (token.text !== text) {
      fail(
        `expected '${text}' ${what}, found ${token.kind === 'end' ? 'the end of the file' : `'${token.text}'`}`,
      );
    }
    return next();
  };
  const isWord = (token: ScatterToken, word: string): boolean =>
    token.kind === 'word' && token.text.toUpperCase() === word;
  const isAttribute = (token: ScatterToken): boolean =>
    token.kind === 'word' && token.text.toUpperCase() in ATTRIBUTES;

  // Expressions. `inHeader` stops an operand at whitespace before a unary sign (`EMPTY -0x400`).
  const expression = (inHeader: boolean): ScatterExpr => conditional(inHeader);

  const conditional = (inHeader: boolean): ScatterExpr => {
    const condition = binary(1, inHeader);
    if (peek().text !== '?') return condition;
    const question = next();
    const whenTrue = conditional(false);
    expect(':', 'in a conditional expression');
    const whenFalse = conditional(inHeader);
    return { kind: 'conditional', condition, whenTrue, whenFalse, position: question.position };
  };

  /** The C operator a token is (armlink's words mapped), or undefined. */
  const binaryOperator = (token: ScatterToken): string | undefined => {
    const op = token.kind === 'word' ? CANONICAL[token.text.toUpperCase()] : token.text;
    return op !== undefined && op in C_PRECEDENCE ? op : undefined;
  };

  const binary = (minimum: number, inHeader: boolean): ScatterExpr => {
    let left = unary(inHeader);
    for (;;) {
      const token = peek();
      const op = binaryOperator(token);
      if (op === undefined || C_PRECEDENCE[op]! < minimum) return left;
      if (inHeader && (op === '+' || op === '-') && token.space && !peek(1).space) return left;
      next();
      const right = binary(C_PRECEDENCE[op]! + 1, inHeader);
      left = { kind: 'binary', op, left, right, position: token.position };
    }
  };

  const unary = (inHeader: boolean): ScatterExpr => {
    const token = peek();
    if (token.kind === 'punct' && ['+', '-', '~', '!'].includes(token.text)) {
      next();
      return {
        kind: 'unary',
        op: token.text as '+' | '-' | '~' | '!',
        operand: unary(inHeader),
        position: token.position,
      };
    }
    return primary();
  };

  const primary = (): ScatterExpr => {
    const token = next();
    if (token.kind === 'number') {
      return { kind: 'number', value: BigInt(token.text), position: token.position };
    }
    if (token.text === '(') {
      const inner = expression(false);
      expect(')', 'to close the parenthesis');
      return inner;
    }
    if (token.kind === 'word') {
      if (peek().text === '(' && !peek().space) {
        next();
        const args: ScatterExpr[] = [];
        if (peek().text !== ')') {
          for (;;) {
            args.push(expression(false));
            if (peek().text !== ',') break;
            next();
          }
        }
        expect(')', `to close ${token.text}(`);
        return { kind: 'call', name: token.text.toLowerCase(), args, position: token.position };
      }
      return { kind: 'name', name: token.text, position: token.position };
    }
    return fail(
      token.kind === 'end'
        ? 'expected an expression, found the end of the file'
        : `expected an expression, found '${token.text}'`,
      token,
    );
  };

  /** Source text of an attribute argument (`ALIGN 8`, `FILL 0xFFFFFFFF`, `SORTTYPE Lexical`). */
  const attributes = (): RegionAttribute[] => {
    const list: RegionAttribute[] = [];
    while (isAttribute(peek())) {
      const token = next();
      const keyword = token.text.toUpperCase();
      if (!ATTRIBUTES[keyword]) {
        list.push({ keyword, position: token.position });
        continue;
      }
      if (keyword === 'SORTTYPE') {
        const argument = next();
        list.push({ keyword, argument: { text: argument.text }, position: token.position });
        continue;
      }
      const start = index;
      const expr = expression(true);
      const text = tokens
        .slice(start, index)
        .map((t, i) => (i > 0 && t.space ? ` ${t.text}` : t.text))
        .join('');
      list.push({ keyword, argument: { text, expr }, position: token.position });
    }
    return list;
  };

  const header = (what: string) => {
    const name = next();
    if (name.kind !== 'word') fail(`expected a ${what} name, found '${name.text}'`, name);
    if (peek().text === '{') fail(`${what} ${name.text} has no base address`);
    const base = expression(true);
    const attrs = attributes();
    const size = peek().text === '{' ? undefined : expression(true);
    attrs.push(...attributes());
    return {
      name: name.text,
      base,
      attributes: attrs,
      ...(size && { size }),
      position: name.position,
    };
  };

  /** `pattern (selectors)` or `pattern`: patterns and selectors are joined runs of unspaced tokens. */
  const inputSection = (): InputSectionDescription => {
    const first = next();
    let module = first.text;
    while (!peek().space && peek().text !== '(' && peek().text !== '}' && peek().kind !== 'end') {
      module += next().text;
    }
    const selectors: string[] = [];
    if (peek().text === '(') {
      next();
      let current = '';
      for (;;) {
        const token = peek();
        if (token.kind === 'end') fail(`unterminated selector list after '${module}'`, first);
        next();
        if (token.text === ')' || token.text === ',' || token.space) {
          if (current) selectors.push(current);
          current = '';
        }
        if (token.text === ')') break;
        if (token.text !== ',') current += token.text;
      }
    }
    return { module, selectors, position: first.position };
  };

  const executionRegion = (): ExecutionRegionDecl => {
    const head = header('execution region');
    expect('{', `to open execution region ${head.name}`);
    const inputs: InputSectionDescription[] = [];
    while (peek().text !== '}') {
      if (peek().kind === 'end') fail(`execution region ${head.name} is not closed with '}'`);
      if (peek().text === '{') {
        fail(`execution regions cannot be nested (in ${head.name})`);
      }
      inputs.push(inputSection());
    }
    next();
    return { ...head, inputs };
  };

  const scatterAssert = (): ScatterExpr => {
    const token = next();
    expect('(', 'after ScatterAssert');
    const condition = expression(false);
    expect(')', 'to close ScatterAssert(');
    return { ...condition, position: token.position };
  };

  const loadRegion = (): LoadRegionDecl => {
    const head = header('load region');
    expect('{', `to open load region ${head.name}`);
    const executionRegions: ExecutionRegionDecl[] = [];
    const asserts: ScatterExpr[] = [];
    while (peek().text !== '}') {
      if (peek().kind === 'end') fail(`load region ${head.name} is not closed with '}'`);
      if (isWord(peek(), 'SCATTERASSERT')) asserts.push(scatterAssert());
      else executionRegions.push(executionRegion());
    }
    next();
    return { ...head, executionRegions, asserts };
  };

  const ast: ScatterFileAst = { loadRegions: [], asserts: [] };
  while (peek().kind !== 'end') {
    if (isWord(peek(), 'SCATTERASSERT')) ast.asserts.push(scatterAssert());
    else ast.loadRegions.push(loadRegion());
  }
  return ast;
}
