import {
  ASSIGN_OPS,
  type AssignOp,
  type Assignment,
  type Expr,
  type MemoryRegionDecl,
  type OutputSectionDecl,
  type Statement,
} from './ast.js';
import { LinkerScriptError, type SourcePosition } from './errors.js';
import { type DirectiveListener, Lexer, type LexMode, type Token } from './lexer.js';

/**
 * What the parser needs from its caller: INCLUDEd files are located and read there (search order,
 * cycle and depth checks) and parsed by `parse` in the context where the INCLUDE stood, as ld does;
 * SEARCH_DIR extends the search path for later INCLUDEs; C preprocessor lines, which ld reads as
 * comments, are reported to `directive` (possibly more than once each).
 */
export interface ParserHost {
  include<T>(name: string, position: SourcePosition, parse: (file: string, text: string) => T): T;
  addSearchDir(path: string): void;
  directive: DirectiveListener;
}

type Context = 'script' | 'memory' | 'sections' | 'outputSection';

const NAME_BUILTINS = new Set([
  'ORIGIN',
  'LENGTH',
  'DEFINED',
  'ADDR',
  'SIZEOF',
  'LOADADDR',
  'ALIGNOF',
  'CONSTANT',
]);
const EXPR_BUILTINS: Record<string, [number, number]> = {
  ABSOLUTE: [1, 1],
  ALIGN: [1, 2],
  BLOCK: [1, 1],
  MAX: [2, 2],
  MIN: [2, 2],
  LOG2CEIL: [1, 1],
  NEXT: [1, 1],
  DATA_SEGMENT_ALIGN: [2, 2],
  DATA_SEGMENT_RELRO_END: [2, 2],
  DATA_SEGMENT_END: [1, 1],
};
const SECTION_TYPES = new Set(['NOLOAD', 'DSECT', 'COPY', 'INFO', 'OVERLAY', 'READONLY']);
const SECTION_HEADER_KEYWORDS = new Set(['ALIGN_WITH_INPUT', 'SPECIAL']);
/** Commands we accept and keep only as text, because they never affect regions or symbols. */
const PLAIN_COMMANDS = new Set([
  'ENTRY',
  'OUTPUT_ARCH',
  'OUTPUT_FORMAT',
  'OUTPUT',
  'TARGET',
  'INPUT',
  'GROUP',
  'STARTUP',
  'EXTERN',
  'NOCROSSREFS',
  'NOCROSSREFS_TO',
  'LD_FEATURE',
  'AS_NEEDED',
]);
const FLAG_COMMANDS = new Set([
  'FORCE_COMMON_ALLOCATION',
  'INHIBIT_COMMON_ALLOCATION',
  'FORCE_GROUP_ALLOCATION',
  'CREATE_OBJECT_SYMBOLS',
  'CONSTRUCTORS',
]);
const BINARY_LEVELS: string[][] = [
  ['||'],
  ['&&'],
  ['|'],
  ['&'],
  ['==', '!='],
  ['<', '>', '<=', '>='],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];
/** Expression nesting deeper than this is refused instead of overflowing the stack. */
const MAX_EXPRESSION_DEPTH = 200;

export class ScriptParser {
  private readonly lexer: Lexer;
  private depth = 0;

  constructor(
    text: string,
    readonly file: string,
    private readonly host: ParserHost,
  ) {
    this.lexer = new Lexer(text, file, host.directive);
  }

  parseScript(): Statement[] {
    return this.statements('script', false);
  }

  /** `--defsym NAME=EXPR`: ld reads it as an assignment statement at that point of the command line. */
  parseDefsym(): Assignment {
    const target = this.expectName('memory', 'a symbol name before =');
    this.expectOp('=', 'memory');
    const value = this.expression();
    const end = this.lexer.next('expr');
    if (end.kind !== 'eof')
      throw this.error(end, `unexpected '${end.text}' after the --defsym expression`);
    return {
      kind: 'assign',
      target: target.text,
      op: '=',
      value,
      provide: false,
      hidden: false,
      inOutputSection: false,
      fromDefsym: true,
      position: target.position,
    };
  }

  // ---------------------------------------------------------------- statements

  private statements(context: Exclude<Context, 'memory'>, closedByBrace: boolean): Statement[] {
    const out: Statement[] = [];
    for (;;) {
      const token = this.lexer.peek('script');
      if (token.kind === 'eof') {
        if (closedByBrace) throw this.error(token, "missing '}'");
        return out;
      }
      if (token.kind === 'op' && token.text === '}') {
        if (!closedByBrace) throw this.error(token, "unexpected '}'");
        this.lexer.next('script');
        return out;
      }
      if (token.kind === 'op' && token.text === ';') {
        this.lexer.next('script');
        continue;
      }
      if (token.kind !== 'name') throw this.error(token, `unexpected '${token.text}'`);
      this.statement(context, token, out);
    }
  }

  private statement(
    context: Exclude<Context, 'memory'>,
    token: Token & { kind: 'name' },
    out: Statement[],
  ): void {
    const word = token.quoted ? '' : token.text;
    const afterName = this.peekAfter(token);
    if (afterName.kind === 'op' && ASSIGN_OPS.includes(afterName.text)) {
      out.push(this.assignment(context, false, false));
      return;
    }
    if (word === 'PROVIDE' || word === 'PROVIDE_HIDDEN' || word === 'HIDDEN') {
      this.lexer.next('script');
      this.expectOp('(', 'script');
      const assignment = this.assignment(context, word !== 'HIDDEN', word !== 'PROVIDE', ')');
      this.expectOp(')', 'script');
      out.push(assignment);
      return;
    }
    if (word === 'INCLUDE') {
      this.lexer.next('script');
      const name = this.expectName('script', 'a file name after INCLUDE');
      out.push(
        ...this.host.include(name.text, name.position, (file, text) =>
          new ScriptParser(text, file, this.host).statements(context, false),
        ),
      );
      return;
    }
    if (word === 'ASSERT') {
      out.push(this.assertion());
      return;
    }
    if (context === 'script') {
      this.scriptCommand(token, word, out);
      return;
    }
    if (FLAG_COMMANDS.has(word)) {
      this.lexer.next('script');
      return;
    }
    if (context === 'sections') {
      if (word === 'ENTRY') {
        this.plainCommand(word, out);
        return;
      }
      if (word === 'OVERLAY') {
        out.push(...this.overlay());
        return;
      }
      out.push(this.outputSection());
      return;
    }
    this.skipInputSectionDescription();
  }

  private scriptCommand(token: Token & { kind: 'name' }, word: string, out: Statement[]): void {
    const position = token.position;
    if (word === 'MEMORY') {
      this.lexer.next('script');
      this.expectOp('{', 'memory');
      out.push({ kind: 'memory', regions: this.memoryEntries(true), position });
    } else if (word === 'SECTIONS') {
      this.lexer.next('script');
      this.expectOp('{', 'script');
      out.push({ kind: 'sections', body: this.statements('sections', true), position });
    } else if (word === 'REGION_ALIAS') {
      this.lexer.next('script');
      this.expectOp('(', 'memory');
      const alias = this.expectName('memory', 'an alias name');
      this.expectOp(',', 'memory');
      const region = this.expectName('memory', 'a memory region name');
      this.expectOp(')', 'memory');
      out.push({ kind: 'regionAlias', alias: alias.text, region: region.text, position });
    } else if (word === 'SEARCH_DIR') {
      this.lexer.next('script');
      this.expectOp('(', 'script');
      const dir = this.expectName('script', 'a directory');
      this.expectOp(')', 'script');
      this.host.addSearchDir(dir.text);
    } else if (PLAIN_COMMANDS.has(word)) {
      this.plainCommand(word, out);
    } else if (FLAG_COMMANDS.has(word)) {
      this.lexer.next('script');
    } else if (word === 'PHDRS' || word === 'VERSION') {
      this.lexer.next('script');
      this.skipBalanced('{', '}');
    } else if (word === 'INSERT') {
      this.lexer.next('script');
      const where = this.expectName('script', 'AFTER or BEFORE');
      if (where.text !== 'AFTER' && where.text !== 'BEFORE')
        throw this.error(where, 'expected AFTER or BEFORE');
      this.expectName('script', 'an output section name');
    } else {
      throw this.error(
        token,
        `unknown command '${token.text}' (expected an assignment or a linker script command)`,
      );
    }
  }

  private plainCommand(word: string, out: Statement[]): void {
    const token = this.lexer.next('script');
    const argument = this.skipBalanced('(', ')');
    out.push({ kind: 'command', name: word, argument, position: token.position });
  }

  private assignment(
    context: Exclude<Context, 'memory'>,
    provide: boolean,
    hidden: boolean,
    closer = ';',
  ): Assignment {
    const target = this.expectName('script', 'a symbol name');
    const opToken = this.lexer.next('script');
    if (opToken.kind !== 'op' || !ASSIGN_OPS.includes(opToken.text)) {
      throw this.error(opToken, `expected an assignment operator after '${target.text}'`);
    }
    const value = this.expression();
    if (closer === ';') {
      // ld needs the ';' but tolerates its absence right before a closing brace.
      const end = this.lexer.peek('script');
      if (end.kind === 'op' && end.text === ';') this.lexer.next('script');
      else if (!(end.kind === 'op' && end.text === '}') && end.kind !== 'eof')
        throw this.error(end, "expected ';' after the assignment");
    }
    return {
      kind: 'assign',
      target: target.text,
      op: opToken.text as AssignOp,
      value,
      provide,
      hidden,
      inOutputSection: context === 'outputSection',
      fromDefsym: false,
      position: target.position,
    };
  }

  private assertion(): Statement {
    const token = this.lexer.next('script');
    this.expectOp('(', 'expr');
    const condition = this.expression();
    this.expectOp(',', 'expr');
    const message = this.lexer.next('expr');
    if (message.kind !== 'name') throw this.error(message, 'expected the ASSERT message');
    this.expectOp(')', 'expr');
    return { kind: 'assert', condition, message: message.text, position: token.position };
  }

  // ---------------------------------------------------------------- MEMORY

  private memoryEntries(closedByBrace: boolean): MemoryRegionDecl[] {
    const out: MemoryRegionDecl[] = [];
    for (;;) {
      const token = this.lexer.peek('memory');
      if (token.kind === 'eof') {
        if (closedByBrace) throw this.error(token, "missing '}' at the end of MEMORY");
        return out;
      }
      if (token.kind === 'op' && token.text === '}' && closedByBrace) {
        this.lexer.next('memory');
        return out;
      }
      if (token.kind === 'op' && (token.text === ',' || token.text === ';')) {
        this.lexer.next('memory');
        continue;
      }
      if (token.kind !== 'name')
        throw this.error(token, `expected a memory region name, found '${token.text}'`);
      if (!token.quoted && token.text === 'INCLUDE') {
        this.lexer.next('memory');
        const name = this.expectName('script', 'a file name after INCLUDE');
        out.push(
          ...this.host.include(name.text, name.position, (file, text) =>
            new ScriptParser(text, file, this.host).memoryEntries(false),
          ),
        );
        continue;
      }
      out.push(this.memoryEntry());
    }
  }

  private memoryEntry(): MemoryRegionDecl {
    const name = this.lexer.next('memory') as Token & { kind: 'name' };
    if (isMemoryKeyword(name.text))
      throw this.error(name, `'${name.text}' is a keyword, not a region name`);
    const attributeWords: string[] = [];
    if (this.acceptOp('(', 'memory')) {
      for (;;) {
        const token = this.lexer.next('memory');
        if (token.kind === 'op' && token.text === ')') break;
        let negated = false;
        let word = token;
        if (word.kind === 'op' && word.text === '!') {
          negated = true;
          word = this.lexer.next('memory');
        }
        if (word.kind !== 'name' || isMemoryKeyword(word.text)) {
          throw this.error(
            word,
            `unexpected '${word.text}' in the attributes of region ${name.text}`,
          );
        }
        attributeWords.push(negated ? `!${word.text}` : word.text);
      }
      if (attributeWords.length === 0)
        throw this.error(name, `empty attribute list for region ${name.text}`);
    }
    this.expectOp(':', 'memory');
    const origin = this.memoryKeywordValue(['ORIGIN', 'org', 'o'], name.text);
    this.acceptOp(',', 'memory');
    const length = this.memoryKeywordValue(['LENGTH', 'len', 'l'], name.text);
    return { name: name.text, origin, length, attributeWords, position: name.position };
  }

  private memoryKeywordValue(spellings: string[], region: string): Expr {
    const keyword = this.lexer.next('memory');
    if (keyword.kind !== 'name' || keyword.quoted || !spellings.includes(keyword.text)) {
      throw this.error(
        keyword,
        `expected ${spellings.join(', ')} in region ${region}, found '${keyword.text}'`,
      );
    }
    this.expectOp('=', 'memory');
    return this.expression();
  }

  // ---------------------------------------------------------------- SECTIONS

  private outputSection(): OutputSectionDecl {
    const name = this.lexer.next('script') as Token & { kind: 'name' };
    let address: Expr | undefined;
    let type: string | undefined;
    for (;;) {
      const token = this.lexer.peek('expr');
      if (token.kind === 'op' && token.text === ':') break;
      if (token.kind === 'eof')
        throw this.error(token, `expected ':' after output section ${name.text}`);
      const sectionType = this.sectionType();
      if (sectionType !== undefined) type = sectionType;
      else if (address === undefined) address = this.expression();
      else
        throw this.error(
          token,
          `unexpected '${token.text}' in the header of output section ${name.text}`,
        );
    }
    this.lexer.next('expr');
    let loadAddress: Expr | undefined;
    let constraint: OutputSectionDecl['constraint'];
    for (;;) {
      const token = this.lexer.peek('script');
      if (token.kind === 'op' && token.text === '{') break;
      if (token.kind !== 'name')
        throw this.error(token, `expected '{' for output section ${name.text}`);
      this.lexer.next('script');
      if (token.text === 'ONLY_IF_RO' || token.text === 'ONLY_IF_RW') {
        constraint = token.text;
      } else if (token.text === 'AT') {
        this.expectOp('(', 'expr');
        loadAddress = this.expression();
        this.expectOp(')', 'expr');
      } else if (token.text === 'ALIGN' || token.text === 'SUBALIGN') {
        this.expectOp('(', 'expr');
        this.expression();
        this.expectOp(')', 'expr');
      } else if (!SECTION_HEADER_KEYWORDS.has(token.text)) {
        throw this.error(
          token,
          `unexpected '${token.text}' before '{' of output section ${name.text}`,
        );
      }
    }
    this.lexer.next('script');
    const body = this.statements('outputSection', true);
    const trailer = this.sectionTrailer();
    return {
      kind: 'outputSection',
      name: name.text,
      address,
      loadAddress,
      type,
      ...(constraint !== undefined && { constraint }),
      body,
      position: name.position,
      ...trailer,
    };
  }

  /** `(NOLOAD)`-style types; a parenthesised address such as `(ORIGIN(RAM) + 4)` is left alone. */
  private sectionType(): string | undefined {
    const open = this.lexer.peek('expr');
    if (!(open.kind === 'op' && open.text === '(')) return undefined;
    const word = this.peekAfter(open);
    if (!(word.kind === 'name' && (SECTION_TYPES.has(word.text) || word.text === 'TYPE')))
      return undefined;
    this.lexer.next('expr');
    this.lexer.next('script');
    if (word.text === 'TYPE') {
      this.expectOp('=', 'script');
      this.expression();
    }
    this.expectOp(')', 'script');
    return word.text;
  }

  private sectionTrailer(): { region: string | undefined; loadRegion: string | undefined } {
    let region: string | undefined;
    let loadRegion: string | undefined;
    for (;;) {
      const token = this.lexer.peek('script');
      if (token.kind === 'op' && token.text === '>') {
        this.lexer.next('script');
        region = this.expectName('memory', 'a memory region after >').text;
      } else if (token.kind === 'name' && token.text === 'AT' && this.isOpAfter(token, '>')) {
        this.lexer.next('script');
        this.lexer.next('script');
        loadRegion = this.expectName('memory', 'a memory region after AT>').text;
      } else if (token.kind === 'op' && token.text === ':') {
        this.lexer.next('script');
        this.expectName('memory', 'a program header name');
      } else if (token.kind === 'op' && token.text === '=') {
        this.lexer.next('script');
        this.expression();
      } else {
        if (token.kind === 'op' && token.text === ',') this.lexer.next('script');
        return { region, loadRegion };
      }
    }
  }

  /** OVERLAY [start] : [NOCROSSREFS] [AT(lma)] { sec { … } … } [>region] [AT>region] … */
  private overlay(): Statement[] {
    this.lexer.next('script');
    let address: Expr | undefined;
    const first = this.lexer.peek('expr');
    if (!(first.kind === 'op' && first.text === ':')) address = this.expression();
    this.expectOp(':', 'expr');
    let loadAddress: Expr | undefined;
    for (;;) {
      const token = this.lexer.next('script');
      if (token.kind === 'op' && token.text === '{') break;
      if (token.kind === 'name' && token.text === 'AT') {
        this.expectOp('(', 'expr');
        loadAddress = this.expression();
        this.expectOp(')', 'expr');
      } else if (!(token.kind === 'name' && token.text === 'NOCROSSREFS')) {
        throw this.error(token, "expected '{' after OVERLAY");
      }
    }
    const members: OutputSectionDecl[] = [];
    for (;;) {
      const token = this.lexer.next('script');
      if (token.kind === 'op' && token.text === '}') break;
      if (token.kind !== 'name') throw this.error(token, 'expected an overlay section name');
      this.expectOp('{', 'script');
      const body = this.statements('outputSection', true);
      this.sectionTrailer();
      members.push({
        kind: 'outputSection',
        name: token.text,
        address,
        loadAddress,
        region: undefined,
        loadRegion: undefined,
        type: 'OVERLAY',
        body,
        position: token.position,
      });
    }
    const trailer = this.sectionTrailer();
    return members.map((member) => ({ ...member, ...trailer }));
  }

  /** Input section descriptions and data commands (`*(.text*)`, `KEEP(…)`, `LONG(…)`) carry no symbol values. */
  private skipInputSectionDescription(): void {
    this.lexer.next('script');
    const next = this.lexer.peek('script');
    if (next.kind === 'op' && next.text === '(') this.skipBalanced('(', ')');
  }

  // ---------------------------------------------------------------- expressions

  expression(): Expr {
    if (++this.depth > MAX_EXPRESSION_DEPTH) {
      throw this.error(this.lexer.peek('expr'), 'expression nested too deeply');
    }
    try {
      const condition = this.binary(0);
      const question = this.lexer.peek('expr');
      if (!(question.kind === 'op' && question.text === '?')) return condition;
      this.lexer.next('expr');
      const whenTrue = this.expression();
      this.expectOp(':', 'expr');
      const whenFalse = this.expression();
      return { kind: 'conditional', condition, whenTrue, whenFalse, position: question.position };
    } finally {
      this.depth--;
    }
  }

  private binary(level: number): Expr {
    if (level >= BINARY_LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const token = this.lexer.peek('expr');
      if (token.kind !== 'op' || !BINARY_LEVELS[level]!.includes(token.text)) return left;
      this.lexer.next('expr');
      const right = this.binary(level + 1);
      left = { kind: 'binary', op: token.text, left, right, position: token.position };
    }
  }

  private unary(): Expr {
    const token = this.lexer.peek('expr');
    if (
      token.kind === 'op' &&
      (token.text === '-' || token.text === '+' || token.text === '!' || token.text === '~')
    ) {
      this.lexer.next('expr');
      if (++this.depth > MAX_EXPRESSION_DEPTH)
        throw this.error(token, 'expression nested too deeply');
      try {
        return { kind: 'unary', op: token.text, operand: this.unary(), position: token.position };
      } finally {
        this.depth--;
      }
    }
    return this.primary();
  }

  private primary(): Expr {
    const token = this.lexer.next('expr');
    const position = token.position;
    if (token.kind === 'number') return { kind: 'number', value: token.value, position };
    if (token.kind === 'op' && token.text === '(') {
      const inner = this.expression();
      this.expectOp(')', 'expr');
      return inner;
    }
    if (token.kind !== 'name') {
      throw this.error(
        token,
        token.kind === 'eof'
          ? 'unexpected end of file in an expression'
          : `unexpected '${token.text}' in an expression`,
      );
    }
    if (token.quoted) return { kind: 'symbol', name: token.text, position };
    if (token.text === '.') return { kind: 'dot', position };
    if (token.text === 'SIZEOF_HEADERS')
      return { kind: 'call', name: token.text, args: [], position };
    const open = this.lexer.peek('expr');
    const isCall = open.kind === 'op' && open.text === '(';
    if (isCall && NAME_BUILTINS.has(token.text)) {
      this.lexer.next('expr');
      const argument = this.expectName('memory', `a name inside ${token.text}()`);
      this.expectOp(')', 'expr');
      return { kind: 'nameCall', name: token.text, argument: argument.text, position };
    }
    if (isCall && token.text === 'SEGMENT_START') {
      this.lexer.next('expr');
      const segment = this.expectName('memory', 'a segment name');
      this.expectOp(',', 'expr');
      const fallback = this.expression();
      this.expectOp(')', 'expr');
      return { kind: 'segmentStart', segment: segment.text, fallback, position };
    }
    const arity = EXPR_BUILTINS[token.text];
    if (isCall && arity) {
      this.lexer.next('expr');
      const args = [this.expression()];
      while (this.acceptOp(',', 'expr')) args.push(this.expression());
      this.expectOp(')', 'expr');
      if (args.length < arity[0] || args.length > arity[1]) {
        throw this.error(
          token,
          `${token.text}() takes ${arity[0] === arity[1] ? arity[0] : `${arity[0]} or ${arity[1]}`} argument(s), got ${args.length}`,
        );
      }
      return { kind: 'call', name: token.text, args, position };
    }
    return { kind: 'symbol', name: token.text, position };
  }

  // ---------------------------------------------------------------- helpers

  private peekAfter(token: Token): Token {
    const lexer = new Lexer(this.lexer.text, this.file);
    lexer.seek(token.end);
    return lexer.peek('script');
  }

  private isOpAfter(token: Token, op: string): boolean {
    const after = this.peekAfter(token);
    return after.kind === 'op' && after.text === op;
  }

  /** Skips from an opening bracket to its partner and returns the text between them. */
  private skipBalanced(open: string, close: string): string {
    const start = this.lexer.peek('script');
    if (!(start.kind === 'op' && start.text === open))
      throw this.error(start, `expected '${open}'`);
    const end = this.lexer.findClosing(start.offset, open, close);
    this.lexer.seek(end + 1);
    return this.lexer.text.slice(start.offset + 1, end).trim();
  }

  private acceptOp(op: string, mode: LexMode): boolean {
    const token = this.lexer.peek(mode);
    if (token.kind === 'op' && token.text === op) {
      this.lexer.next(mode);
      return true;
    }
    return false;
  }

  private expectOp(op: string, mode: LexMode): Token {
    const token = this.lexer.next(mode);
    if (!(token.kind === 'op' && token.text === op)) {
      throw this.error(
        token,
        `expected '${op}', found ${token.kind === 'eof' ? 'end of file' : `'${token.text}'`}`,
      );
    }
    return token;
  }

  private expectName(mode: LexMode, what: string): Token & { kind: 'name' } {
    const token = this.lexer.next(mode);
    if (token.kind !== 'name') {
      throw this.error(
        token,
        `expected ${what}, found ${token.kind === 'eof' ? 'end of file' : `'${token.text}'`}`,
      );
    }
    return token;
  }

  private error(token: Token, message: string): LinkerScriptError {
    return new LinkerScriptError('syntax', `syntax error: ${message}`, token.position);
  }
}

function isMemoryKeyword(word: string): boolean {
  return ['ORIGIN', 'org', 'o', 'LENGTH', 'len', 'l'].includes(word);
}
