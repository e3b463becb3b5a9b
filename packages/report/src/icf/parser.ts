/**
 * ILINK configuration syntax: `define symbol|memory|region|block|overlay|section`, `initialize`,
 * `do not initialize`, `place in|at`, `if`/`else`, `include`, `error`, `check that`, and directives
 * that do not bear on memory layout (`keep`, `export symbol`, `use init table`, `build for`…),
 * which are read and skipped. SEGGER's variant is accepted too: a nameless `define memory`, region
 * literals without a memory name, `with … order` and `readwrite access` parameters, `initialize by
 * symbol`/`by calling`, `copy of`, `readexec`.
 */
import type { IcfExpr, PlacementKind, RegionExpr, SelectorItem, Statement } from './ast.js';
import { C_PRECEDENCE } from '../expressions/index.js';
import { IcfError } from './errors.js';
import type { IcfToken } from './lexer.js';

const REGION_FUNCTIONS = new Set(['start', 'end', 'size', 'isempty']);
const SECTION_ATTRIBUTES = new Set([
  'readonly',
  'readwrite',
  'zeroinit',
  'ro',
  'rw',
  'zi',
  'code',
  'data',
  'const',
  'readexec',
  'rx',
]);

export function parseIcf(tokens: IcfToken[]): Statement[] {
  let index = 0;
  const peek = (offset = 0): IcfToken => tokens[Math.min(index + offset, tokens.length - 1)]!;
  const next = (): IcfToken => tokens[Math.min(index++, tokens.length - 1)]!;
  const describe = (token: IcfToken): string =>
    token.kind === 'end' ? 'the end of the file' : `'${token.text}'`;
  const fail = (message: string, token: IcfToken = peek()): never => {
    throw new IcfError(message, token.position);
  };
  const isWord = (token: IcfToken, word: string): boolean =>
    token.kind === 'name' && token.text === word;
  const accept = (word: string): boolean => {
    if (!isWord(peek(), word) && !(peek().kind === 'punct' && peek().text === word)) return false;
    next();
    return true;
  };
  const expect = (word: string, what: string): IcfToken => {
    if (peek().text !== word || peek().kind === 'string') {
      fail(`expected '${word}' ${what}, found ${describe(peek())}`);
    }
    return next();
  };
  const name = (what: string): string => {
    const token = next();
    if (token.kind !== 'name' && token.kind !== 'string') {
      fail(`expected ${what}, found ${describe(token)}`, token);
    }
    return token.text;
  };

  // Expressions.
  const expression = (): IcfExpr => {
    const condition = binary(1);
    if (peek().text !== '?' || peek().kind !== 'punct') return condition;
    const question = next();
    const whenTrue = expression();
    expect(':', 'in a conditional expression');
    const whenFalse = expression();
    return { kind: 'conditional', condition, whenTrue, whenFalse, position: question.position };
  };

  const binary = (minimum: number): IcfExpr => {
    let left = unary();
    for (;;) {
      const token = peek();
      const precedence = token.kind === 'punct' ? C_PRECEDENCE[token.text] : undefined;
      if (precedence === undefined || precedence < minimum) return left;
      next();
      const right = binary(precedence + 1);
      left = { kind: 'binary', op: token.text, left, right, position: token.position };
    }
  };

  const unary = (): IcfExpr => {
    const token = peek();
    if (token.kind === 'punct' && ['+', '-', '!', '~'].includes(token.text)) {
      next();
      const op = token.text as '+' | '-' | '!' | '~';
      return { kind: 'unary', op, operand: unary(), position: token.position };
    }
    return primary();
  };

  const primary = (): IcfExpr => {
    const token = next();
    if (token.kind === 'number') {
      return { kind: 'number', value: token.value!, position: token.position };
    }
    if (token.kind === 'punct' && token.text === '(') {
      const inner = expression();
      expect(')', 'to close the parenthesis');
      return inner;
    }
    if (token.kind === 'name') {
      if (peek().text !== '(' || peek().kind !== 'punct') {
        return { kind: 'symbol', name: token.text, position: token.position };
      }
      next();
      const fn = token.text.toLowerCase();
      let call: IcfExpr;
      if (REGION_FUNCTIONS.has(fn)) {
        call = {
          kind: 'call',
          name: fn,
          args: [],
          region: regionExpression(),
          position: token.position,
        };
      } else if (fn === 'isdefinedsymbol') {
        call = {
          kind: 'call',
          name: fn,
          args: [],
          symbol: name('a symbol name'),
          position: token.position,
        };
      } else {
        const args: IcfExpr[] = [expression()];
        while (accept(',')) args.push(expression());
        call = { kind: 'call', name: fn, args, position: token.position };
      }
      expect(')', `to close ${token.text}(`);
      return call;
    }
    return fail(`expected an expression, found ${describe(token)}`, token);
  };

  // Region expressions.
  const regionExpression = (): RegionExpr => {
    let left = regionOperand();
    while (peek().kind === 'punct' && ['|', '&', '-'].includes(peek().text)) {
      const op = next();
      const right = regionOperand();
      left = { kind: 'op', op: op.text as '|' | '&' | '-', left, right, position: op.position };
    }
    return left;
  };

  const regionOperand = (): RegionExpr => {
    const token = peek();
    if (token.kind === 'punct' && token.text === '(') {
      next();
      const inner = regionExpression();
      expect(')', 'to close the parenthesis');
      return inner;
    }
    if (token.kind === 'punct' && token.text === '[') return literal(undefined);
    if (token.kind === 'name' && peek(1).text === ':' && peek(1).kind === 'punct') {
      next();
      next();
      return literal(token.text);
    }
    if (token.kind === 'name' || token.kind === 'string') {
      next();
      return { kind: 'region', name: token.text, position: token.position };
    }
    return fail(`expected a region, found ${describe(token)}`);
  };

  const literal = (memory: string | undefined): RegionExpr => {
    const open = expect('[', 'to start a region literal');
    if (accept(']')) return { kind: 'empty', position: open.position };
    if (!accept('from')) fail(`expected 'from' in a region literal, found ${describe(peek())}`);
    const from = expression();
    const result: RegionExpr & { kind: 'literal' } = {
      kind: 'literal',
      ...(memory !== undefined && { memory }),
      from,
      position: open.position,
    };
    if (accept('to')) result.to = expression();
    else if (accept('size')) result.size = expression();
    else fail(`expected 'to' or 'size' in a region literal, found ${describe(peek())}`);
    if (accept('repeat')) {
      result.repeat = expression();
      if (accept('displacement')) result.displacement = expression();
    }
    expect(']', 'to end the region literal');
    return result;
  };

  // Section selection.
  /** A section or object pattern: a quoted name, or touching tokens such as `.bss.*`. */
  const pattern = (): string => {
    const first = next();
    if (first.kind === 'string') return first.text;
    if (first.kind === 'end' || (first.kind === 'punct' && ',{};'.includes(first.text))) {
      fail(`expected a section pattern, found ${describe(first)}`, first);
    }
    let text = first.text;
    while (!peek().space && peek().kind !== 'end' && !',{};'.includes(peek().text)) {
      text += next().text;
    }
    return text;
  };

  /** Skips block or directive parameters (`with alignment = 8, size = 1K`) up to `{` or `;`. */
  const parameters = (): IcfToken[] => {
    const skipped: IcfToken[] = [];
    let depth = 0;
    while (peek().kind !== 'end') {
      const text = peek().kind === 'punct' ? peek().text : '';
      if (depth === 0 && (text === '{' || text === ';')) break;
      if (text === '(') depth++;
      if (text === ')') depth--;
      skipped.push(next());
    }
    return skipped;
  };

  const items = (): SelectorItem[] => {
    expect('{', 'to start a section selection');
    const list: SelectorItem[] = [];
    while (!accept('}')) {
      if (peek().kind === 'end') fail("section selection is not closed with '}'");
      list.push(item());
      if (accept(',')) {
        if (peek().text === '}') fail("expected a section selector after ','");
      } else if (peek().text !== '}') {
        fail(`expected ',' or '}' in a section selection, found ${describe(peek())}`);
      }
    }
    return list;
  };

  const item = (): SelectorItem => {
    const result: SelectorItem = { attributes: [], position: peek().position };
    for (;;) {
      const token = peek();
      if (token.kind !== 'name') break;
      const word = token.text.toLowerCase();
      if (['first', 'last', 'midway'].includes(word)) next();
      else if (SECTION_ATTRIBUTES.has(word)) result.attributes.push(next().text.toLowerCase());
      else if (word === 'section') {
        next();
        result.section = pattern();
      } else if (word === 'object') {
        next();
        result.object = pattern();
      } else if (word === 'symbol') {
        next();
        result.symbol = name('a symbol name');
      } else if (word === 'overlay') {
        next();
        result.overlay = name('an overlay name');
      } else if (word === 'init_array' || word === 'fini_array') {
        // SEGGER: the sections of the C++ constructor and destructor tables.
        next();
        result.section = `.${word}`;
      } else if (word === 'copy' && isWord(peek(1), 'of')) {
        next();
        next();
        result.copyOf = peek().text === '{' ? items() : [item()];
      } else if (word === 'block') {
        next();
        if (isWord(peek(), 'with') || peek().text === '{') {
          parameters();
          result.nested = items();
        } else {
          result.block = name('a block name');
        }
      } else {
        fail(`unexpected '${token.text}' in a section selection`);
      }
    }
    if (
      result.attributes.length === 0 &&
      [
        result.section,
        result.object,
        result.symbol,
        result.block,
        result.overlay,
        result.nested,
        result.copyOf,
      ].every((v) => v === undefined)
    ) {
      fail(`expected a section selector, found ${describe(peek())}`);
    }
    return result;
  };

  const selection = (): SelectorItem[] => {
    const list = items();
    if (accept('except')) items();
    return list;
  };

  const end = (what: string): void => {
    expect(';', `to end ${what}`);
  };

  /** A directive that does not bear on memory layout: skipped up to its `;`. */
  const other = (keyword: IcfToken): Statement => {
    let depth = 0;
    while (peek().kind !== 'end') {
      const token = next();
      if (token.kind !== 'punct') continue;
      if (token.text === '{') depth++;
      if (token.text === '}') depth--;
      if (token.text === ';' && depth <= 0) break;
    }
    return { kind: 'other', keyword: keyword.text, position: keyword.position };
  };

  // Directives.
  const define = (keyword: IcfToken): Statement => {
    let exported = false;
    while (isWord(peek(), 'exported') || isWord(peek(), 'image')) {
      exported = true;
      next();
    }
    let declared: 'rom' | 'ram' | undefined;
    if ((isWord(peek(), 'rom') || isWord(peek(), 'ram')) && isWord(peek(1), 'region')) {
      declared = next().text as 'rom' | 'ram';
    }
    const what = next();
    switch (what.kind === 'name' ? what.text : '') {
      case 'symbol': {
        const symbol = name('a symbol name');
        expect('=', `after define symbol ${symbol}`);
        const value = expression();
        end('define symbol');
        return { kind: 'symbol', name: symbol, exported, value, position: what.position };
      }
      case 'memory': {
        const memory = isWord(peek(), 'with') ? '' : name('a memory name');
        if (!accept('with')) fail(`expected 'with size = …' after define memory ${memory}`);
        let size: IcfExpr | undefined;
        do {
          const parameter = name('a memory parameter');
          expect('=', `after ${parameter}`);
          const value = expression();
          if (parameter === 'size') size = value;
        } while (accept(','));
        end('define memory');
        if (!size) fail(`define memory ${memory} has no size`, what);
        return { kind: 'memory', name: memory, size: size!, position: what.position };
      }
      case 'region': {
        const region = name('a region name');
        expect('=', `after define region ${region}`);
        const value = regionExpression();
        if (accept('with')) parameters();
        end('define region');
        return {
          kind: 'region',
          name: region,
          ...(declared && { declared }),
          value,
          position: what.position,
        };
      }
      case 'block':
      case 'overlay': {
        const block = name(`a ${what.text} name`);
        const params = accept('with') ? parameters() : [];
        // `size = …`, `minimum size = …`, `expanding size`: a reserve (stack, heap), not a group.
        const sized = params.some((t) => t.kind === 'name' && t.text === 'size');
        const list = selection();
        end(`define ${what.text}`);
        return {
          kind: 'block',
          overlay: what.text === 'overlay',
          name: block,
          sized,
          items: list,
          position: what.position,
        };
      }
      default:
        // define section, define access, define phdr…: no effect on regions.
        return other(keyword);
    }
  };

  const place = (label: string | undefined, keyword: IcfToken): Statement => {
    const noload = accept('noload');
    const declared =
      isWord(peek(), 'ram') || isWord(peek(), 'rom') ? (next().text as 'rom' | 'ram') : undefined;
    let placement: PlacementKind;
    let region: RegionExpr | undefined;
    let address: IcfExpr | undefined;
    let memory: string | undefined;
    if (accept('in')) {
      placement = 'in';
      region = regionExpression();
    } else if (accept('at')) {
      if (accept('address')) {
        placement = 'at address';
        if (peek().kind === 'name' && peek(1).text === ':' && peek(1).kind === 'punct') {
          memory = next().text;
          next();
        }
        address = expression();
      } else if (isWord(peek(), 'start') || isWord(peek(), 'end')) {
        placement = next().text === 'start' ? 'at start' : 'at end';
        if (!accept('of')) fail(`expected 'of' after place at ${placement.slice(3)}`);
        region = regionExpression();
      } else {
        return fail(
          `expected 'address', 'start of' or 'end of' after place at, found ${describe(peek())}`,
        );
      }
    } else {
      return fail(`expected 'in' or 'at' after place, found ${describe(peek())}`);
    }
    if (accept('with')) parameters();
    const list = selection();
    end('the place directive');
    return {
      kind: 'place',
      ...(label !== undefined && { label }),
      placement,
      ...(region && { region }),
      ...(address && { address }),
      ...(memory !== undefined && { memory }),
      ...(declared && { declared }),
      noload,
      items: list,
      position: keyword.position,
    };
  };

  const ifStatement = (keyword: IcfToken): Statement => {
    expect('(', 'after if');
    const condition = expression();
    expect(')', 'to close the if condition');
    const then = block();
    let otherwise: Statement[] = [];
    if (accept('else')) {
      otherwise = isWord(peek(), 'if') ? [ifStatement(next())] : block();
    }
    return { kind: 'if', condition, then, else: otherwise, position: keyword.position };
  };

  const block = (): Statement[] => {
    expect('{', 'to open the block');
    const list: Statement[] = [];
    while (!accept('}')) {
      if (peek().kind === 'end') fail("block is not closed with '}'");
      list.push(statement());
    }
    return list;
  };

  const statement = (): Statement => {
    const token = next();
    if (token.kind === 'string' && peek().text === ':') {
      next();
      const keyword = next();
      if (!isWord(keyword, 'place'))
        fail(`expected 'place' after the label "${token.text}":`, keyword);
      return place(token.text, keyword);
    }
    if (token.kind !== 'name') return fail(`expected a directive, found ${describe(token)}`, token);
    switch (token.text) {
      case 'define':
        return define(token);
      case 'place':
        return place(undefined, token);
      case 'initialize': {
        let how: 'copy' | 'manually' | 'symbol' | 'calling';
        if (accept('manually')) how = 'manually';
        else {
          if (!accept('by'))
            fail("expected 'by copy', 'manually', 'by symbol' or 'by calling' after initialize");
          const word = name("'copy', 'symbol' or 'calling'");
          if (word !== 'copy' && word !== 'symbol' && word !== 'calling') {
            fail(`unknown initialization 'initialize by ${word}'`, tokens[index - 1]);
          }
          how = word as 'copy' | 'symbol' | 'calling';
          if (how !== 'copy') name('a function name');
        }
        if (accept('with')) parameters();
        const list = selection();
        end('the initialize directive');
        return { kind: 'initialize', how, items: list, position: token.position };
      }
      case 'do': {
        if (!accept('not') || !accept('initialize')) fail("expected 'do not initialize'", token);
        const list = selection();
        end('do not initialize');
        return { kind: 'noInitialize', items: list, position: token.position };
      }
      case 'if':
        return ifStatement(token);
      case 'include': {
        const file = next();
        if (file.kind !== 'string') fail('include needs a "file name"', file);
        end('include');
        return { kind: 'include', file: file.text, position: token.position };
      }
      case 'error': {
        const message = next();
        if (message.kind !== 'string') fail('error needs a "message"', message);
        end('error');
        return { kind: 'error', message: message.text, position: token.position };
      }
      case 'check': {
        if (!accept('that')) fail("expected 'check that'", token);
        const condition = expression();
        end('check that');
        return { kind: 'check', condition, position: token.position };
      }
      case 'keep':
      case 'export':
      case 'use':
      case 'build':
      case 'reserve':
      case 'default':
      case 'assert':
        return other(token);
      default:
        return fail(`unknown directive '${token.text}'`, token);
    }
  };

  const statements: Statement[] = [];
  while (peek().kind !== 'end') statements.push(statement());
  return statements;
}
