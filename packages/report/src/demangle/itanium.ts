/**
 * Itanium C++ ABI demangler (the mangling GCC and Clang use on every ELF target), written from
 * the ABI specification. Output matches GNU c++filt; GCC clone suffixes print as c++filt prints
 * them: `foo(int) [clone .constprop.0]`.
 */
import {
  AbiTagNode,
  ArgPackNode,
  ArrayNode,
  BracedNameNode,
  ClosureNode,
  ConversionNode,
  CtorDtorNode,
  CtorVtableNode,
  ExprNode,
  FunctionEncodingNode,
  FunctionTypeNode,
  LiteralOperatorNode,
  LocalNameNode,
  MemberPointerNode,
  NameNode,
  NestedNode,
  Node,
  OperatorNameNode,
  Out,
  PackExpansionNode,
  printList,
  PointerLikeNode,
  QualifiedTypeNode,
  ReferenceNode,
  SimpleExprNode,
  SpecialNameNode,
  StdSpecialNode,
  TemplateArgsNode,
  TemplateNode,
  TemplateParamNode,
  VendorQualNode,
} from './itanium-nodes.js';

/**
 * Parse failures only ever mean "not a valid mangled name" (the caller returns null), so one
 * preallocated error is thrown: building a stack trace per failure would dominate the cost.
 */
class DemangleError extends Error {}
const FAIL = new DemangleError('not a valid Itanium mangled name');

const BUILTIN: Record<string, string> = {
  v: 'void',
  w: 'wchar_t',
  b: 'bool',
  c: 'char',
  a: 'signed char',
  h: 'unsigned char',
  s: 'short',
  t: 'unsigned short',
  i: 'int',
  j: 'unsigned int',
  l: 'long',
  m: 'unsigned long',
  x: 'long long',
  y: 'unsigned long long',
  n: '__int128',
  o: 'unsigned __int128',
  f: 'float',
  d: 'double',
  e: 'long double',
  g: '__float128',
  z: '...',
};

const BUILTIN_D: Record<string, string> = {
  d: 'decimal64',
  e: 'decimal128',
  f: 'decimal32',
  h: 'half',
  i: 'char32_t',
  s: 'char16_t',
  u: 'char8_t',
  a: 'auto',
  c: 'decltype(auto)',
  n: 'decltype(nullptr)',
};

/** Literal suffixes c++filt uses for integer template arguments; other types print as casts. */
const LITERAL_SUFFIX: Record<string, string> = {
  i: '',
  j: 'u',
  l: 'l',
  m: 'ul',
  x: 'll',
  y: 'ull',
};

interface OperatorInfo {
  name: string;
  arity: number;
}

const OPERATORS: Record<string, OperatorInfo> = {
  nw: { name: 'new', arity: 3 },
  na: { name: 'new[]', arity: 3 },
  dl: { name: 'delete', arity: 1 },
  da: { name: 'delete[]', arity: 1 },
  aw: { name: 'co_await', arity: 1 },
  ps: { name: '+', arity: 1 },
  ng: { name: '-', arity: 1 },
  ad: { name: '&', arity: 1 },
  de: { name: '*', arity: 1 },
  co: { name: '~', arity: 1 },
  pl: { name: '+', arity: 2 },
  mi: { name: '-', arity: 2 },
  ml: { name: '*', arity: 2 },
  dv: { name: '/', arity: 2 },
  rm: { name: '%', arity: 2 },
  an: { name: '&', arity: 2 },
  or: { name: '|', arity: 2 },
  eo: { name: '^', arity: 2 },
  aS: { name: '=', arity: 2 },
  pL: { name: '+=', arity: 2 },
  mI: { name: '-=', arity: 2 },
  mL: { name: '*=', arity: 2 },
  dV: { name: '/=', arity: 2 },
  rM: { name: '%=', arity: 2 },
  aN: { name: '&=', arity: 2 },
  oR: { name: '|=', arity: 2 },
  eO: { name: '^=', arity: 2 },
  ls: { name: '<<', arity: 2 },
  rs: { name: '>>', arity: 2 },
  lS: { name: '<<=', arity: 2 },
  rS: { name: '>>=', arity: 2 },
  eq: { name: '==', arity: 2 },
  ne: { name: '!=', arity: 2 },
  lt: { name: '<', arity: 2 },
  gt: { name: '>', arity: 2 },
  le: { name: '<=', arity: 2 },
  ge: { name: '>=', arity: 2 },
  ss: { name: '<=>', arity: 2 },
  nt: { name: '!', arity: 1 },
  aa: { name: '&&', arity: 2 },
  oo: { name: '||', arity: 2 },
  pp: { name: '++', arity: 1 },
  mm: { name: '--', arity: 1 },
  cm: { name: ',', arity: 2 },
  pm: { name: '->*', arity: 2 },
  pt: { name: '->', arity: 2 },
  dt: { name: '.', arity: 2 },
  cl: { name: '()', arity: 2 },
  ix: { name: '[]', arity: 2 },
  qu: { name: '?', arity: 3 },
  st: { name: 'sizeof ', arity: 1 },
  sz: { name: 'sizeof ', arity: 1 },
  at: { name: 'alignof ', arity: 1 },
  az: { name: 'alignof ', arity: 1 },
  nx: { name: 'noexcept', arity: 1 },
  tw: { name: 'throw', arity: 1 },
  dc: { name: 'dynamic_cast', arity: 2 },
  sc: { name: 'static_cast', arity: 2 },
  cc: { name: 'const_cast', arity: 2 },
  rc: { name: 'reinterpret_cast', arity: 2 },
};

/** Operator codes that occur in expressions but never name an operator function. */
const EXPRESSION_ONLY = new Set(['st', 'sz', 'at', 'az', 'nx', 'tw', 'dc', 'sc', 'cc', 'rc', 'dt']);

const STD_SUBST: Record<string, { full: string; ctor: string }> = {
  a: { full: 'std::allocator', ctor: 'allocator' },
  b: { full: 'std::basic_string', ctor: 'basic_string' },
  s: {
    full: 'std::basic_string<char, std::char_traits<char>, std::allocator<char> >',
    ctor: 'basic_string',
  },
  i: {
    full: 'std::basic_istream<char, std::char_traits<char> >',
    ctor: 'basic_istream',
  },
  o: {
    full: 'std::basic_ostream<char, std::char_traits<char> >',
    ctor: 'basic_ostream',
  },
  d: {
    full: 'std::basic_iostream<char, std::char_traits<char> >',
    ctor: 'basic_iostream',
  },
};

interface Scope {
  args: Node[] | null;
}

/** What parsing a name tells the encoding about how to read the function type after it. */
interface NameInfo {
  node: Node;
  /** The last component has template arguments, so a return type is mangled. */
  template: boolean;
  /** Constructors, destructors and conversion operators never mangle a return type. */
  noReturn: boolean;
  quals: string;
}

class Parser {
  private i = 0;
  private readonly subs: Node[] = [];
  private scope: Scope = { args: null };
  /** Names in template arguments or types do not set the function's template scope. */
  private typeDepth = 0;
  private inConversion = false;

  constructor(private readonly s: string) {}

  private peek(offset = 0): string {
    return this.s[this.i + offset] ?? '';
  }
  private next(): string {
    const c = this.s[this.i];
    if (c === undefined) throw FAIL;
    this.i++;
    return c;
  }
  private eat(text: string): boolean {
    if (this.s.startsWith(text, this.i)) {
      this.i += text.length;
      return true;
    }
    return false;
  }
  private expect(text: string): void {
    if (!this.eat(text)) throw FAIL;
  }
  get atEnd(): boolean {
    return this.i >= this.s.length;
  }
  get position(): number {
    return this.i;
  }

  private number(): number {
    const negative = this.eat('n');
    const start = this.i;
    while (this.peek() >= '0' && this.peek() <= '9') this.i++;
    if (start === this.i) throw FAIL;
    const value = Number(this.s.slice(start, this.i));
    return negative ? -value : value;
  }

  /** `_` = 0, `<n>_` = n + 1 (substitution and template-parameter indices, base 36 or 10). */
  private seqId(base: number): number {
    if (this.eat('_')) return 0;
    const start = this.i;
    while (this.peek() !== '_') this.next();
    const digits = this.s.slice(start, this.i);
    this.expect('_');
    const value = parseInt(digits, base);
    if (Number.isNaN(value)) throw FAIL;
    return value + 1;
  }

  private sourceName(): string {
    const length = this.number();
    if (length <= 0 || this.i + length > this.s.length) throw FAIL;
    const name = this.s.slice(this.i, this.i + length);
    this.i += length;
    // GCC mangles anonymous namespaces as _GLOBAL__N_<something>.
    if (name.startsWith('_GLOBAL_') && /^_GLOBAL_[._$]N/.test(name)) return '(anonymous namespace)';
    return name;
  }

  private discriminator(): void {
    if (this.peek() !== '_') return;
    if (this.peek(1) === '_') {
      this.i += 2;
      this.number();
      this.expect('_');
    } else if (this.peek(1) >= '0' && this.peek(1) <= '9') {
      this.i += 2;
    }
  }

  parseMangled(): Node {
    this.expect('_Z');
    return this.encoding(false);
  }

  private encoding(inLocalName: boolean): Node {
    const c = this.peek();
    if (c === 'T' || (c === 'G' && /[VRTA]/.test(this.peek(1)))) return this.specialName();
    const savedScope = this.scope;
    this.scope = { args: null };
    try {
      const info = this.name();
      const end = this.atEnd || this.peek() === '.' || (inLocalName && this.peek() === 'E');
      if (end) {
        if (info.quals) throw FAIL;
        return info.node;
      }
      const ret = info.template && !info.noReturn ? this.type() : null;
      const params = this.bareFunctionParams(inLocalName ? 'E' : '');
      return new FunctionEncodingNode(info.node, ret, params, info.quals);
    } finally {
      this.scope = savedScope;
    }
  }

  private bareFunctionParams(terminator: string): Node[] {
    const params: Node[] = [];
    while (!this.atEnd && this.peek() !== '.' && this.peek() !== terminator) {
      if (terminator === 'E' && this.peek() === 'E') break;
      params.push(this.type());
    }
    if (params.length === 0) throw FAIL;
    return params.length === 1 && params[0] instanceof NameNode && params[0].name === 'void'
      ? []
      : params;
  }

  private specialName(): Node {
    if (this.eat('TV')) return new SpecialNameNode('vtable for ', this.type());
    if (this.eat('TT')) return new SpecialNameNode('VTT for ', this.type());
    if (this.eat('TI')) return new SpecialNameNode('typeinfo for ', this.type());
    if (this.eat('TS')) return new SpecialNameNode('typeinfo name for ', this.type());
    if (this.eat('TH')) return new SpecialNameNode('TLS init function for ', this.name().node);
    if (this.eat('TW')) return new SpecialNameNode('TLS wrapper function for ', this.name().node);
    if (this.eat('TC')) {
      const derived = this.type();
      this.number();
      this.expect('_');
      return new CtorVtableNode(derived, this.type());
    }
    if (this.eat('Tc')) {
      this.callOffset();
      this.callOffset();
      return new SpecialNameNode('covariant return thunk to ', this.encoding(false));
    }
    if (this.eat('Th')) {
      this.number();
      this.expect('_');
      return new SpecialNameNode('non-virtual thunk to ', this.encoding(false));
    }
    if (this.eat('Tv')) {
      this.number();
      this.expect('_');
      this.number();
      this.expect('_');
      return new SpecialNameNode('virtual thunk to ', this.encoding(false));
    }
    if (this.eat('GV')) return new SpecialNameNode('guard variable for ', this.name().node);
    if (this.eat('GR')) {
      const node = this.name().node;
      const index = this.seqId(36);
      return new SpecialNameNode(`reference temporary #${index} for `, node);
    }
    if (this.eat('GTt')) return new SpecialNameNode('transaction clone for ', this.encoding(false));
    if (this.eat('GTn'))
      return new SpecialNameNode('non-transaction clone for ', this.encoding(false));
    if (this.eat('GA')) return new SpecialNameNode('hidden alias for ', this.encoding(false));
    throw FAIL;
  }

  private callOffset(): void {
    if (this.eat('h')) {
      this.number();
    } else if (this.eat('v')) {
      this.number();
      this.expect('_');
      this.number();
    } else throw FAIL;
    this.expect('_');
  }

  private name(): NameInfo {
    const c = this.peek();
    if (c === 'N') return this.nestedName();
    if (c === 'Z') return this.localName();
    let node: Node;
    let noReturn = false;
    if (c === 'S' && this.peek(1) !== 't') {
      node = this.substitution();
      if (this.peek() !== 'I') return { node, template: false, noReturn: false, quals: '' };
    } else {
      const std = this.eat('St');
      const uq = this.unqualifiedName(null);
      noReturn = uq.noReturn;
      node = std ? new NestedNode(new NameNode('std'), uq.node) : uq.node;
      if (this.peek() !== 'I') return { node, template: false, noReturn, quals: '' };
      this.subs.push(node);
    }
    const args = this.templateArgs();
    this.setScope(args);
    return { node: new TemplateNode(node, args), template: true, noReturn, quals: '' };
  }

  private setScope(args: TemplateArgsNode): void {
    if (this.typeDepth === 0) this.scope.args = args.args;
  }

  private nestedName(): NameInfo {
    this.expect('N');
    let quals = '';
    // Member-function qualifiers, printed c++filt-style after the parameter list.
    for (;;) {
      if (this.eat('r')) quals = ' restrict' + quals;
      else if (this.eat('V')) quals = ' volatile' + quals;
      else if (this.eat('K')) quals = ' const' + quals;
      else break;
    }
    if (this.eat('R')) quals += ' &';
    else if (this.eat('O')) quals += ' &&';
    let node: Node | null = null;
    let template = false;
    let noReturn = false;
    while (!this.eat('E')) {
      const c = this.peek();
      if (c === '') throw FAIL;
      let added = true;
      // Template arguments keep the constructor/conversion nature of the name they follow.
      if (c !== 'I') noReturn = false;
      template = false;
      if (c === 'S' && this.peek(1) !== 't' && node === null) {
        node = this.substitution();
        added = false;
      } else if (c === 'S' && this.peek(1) === 't' && node === null) {
        this.i += 2;
        node = new NameNode('std');
        added = false;
      } else if (c === 'I') {
        if (node === null) throw FAIL;
        const args = this.templateArgs();
        this.setScope(args);
        node = new TemplateNode(node, args);
        template = true;
      } else if (c === 'T') {
        if (node !== null) throw FAIL;
        node = this.templateParam();
      } else if (c === 'D' && (this.peek(1) === 't' || this.peek(1) === 'T')) {
        node = this.type();
      } else if (c === 'M') {
        this.i++;
        added = false;
      } else {
        const uq = this.unqualifiedName(node);
        noReturn = uq.noReturn;
        node = node ? new NestedNode(node, uq.node) : uq.node;
      }
      if (added && node && this.peek() !== 'E') this.subs.push(node);
    }
    if (node === null) throw FAIL;
    return { node, template, noReturn, quals };
  }

  private localName(): NameInfo {
    this.expect('Z');
    const encoding = this.encoding(true);
    // c++filt leaves the return type out of a function that encloses a local entity.
    if (encoding instanceof FunctionEncodingNode) encoding.hideReturn = true;
    this.expect('E');
    if (this.eat('s')) {
      this.discriminator();
      return {
        node: new LocalNameNode(encoding, new NameNode('string literal')),
        template: false,
        noReturn: false,
        quals: '',
      };
    }
    if (this.eat('d')) {
      const index = this.peek() === '_' ? 0 : this.number() + 1;
      this.expect('_');
      const inner = this.name();
      const node = new LocalNameNode(
        encoding,
        new NestedNode(new BracedNameNode(`{default arg#${index + 1}}`), inner.node),
      );
      return { ...inner, node };
    }
    const inner = this.name();
    this.discriminator();
    return { ...inner, node: new LocalNameNode(encoding, inner.node) };
  }

  /** `prefix` is the enclosing scope, needed to name constructors and destructors. */
  private unqualifiedName(prefix: Node | null): { node: Node; noReturn: boolean } {
    const c = this.peek();
    let node: Node;
    let noReturn = false;
    if (c >= '0' && c <= '9') node = new NameNode(this.sourceName());
    else if (c === 'L') {
      this.i++;
      node = new NameNode(this.sourceName());
      this.discriminator();
    } else if (c === 'C' || (c === 'D' && /[0-5]/.test(this.peek(1)))) {
      node = this.ctorDtor(prefix);
      noReturn = true;
    } else if (c === 'U') node = this.unnamedType();
    else if (c === 'D' && this.peek(1) === 'C') {
      this.i += 2;
      const names: string[] = [];
      while (!this.eat('E')) names.push(this.sourceName());
      node = new BracedNameNode(`[${names.join(', ')}]`);
    } else {
      const op = this.operatorName();
      node = op.node;
      noReturn = op.conversion;
    }
    while (this.peek() === 'B') {
      this.i++;
      node = new AbiTagNode(node, this.sourceName());
    }
    return { node, noReturn };
  }

  private ctorDtor(prefix: Node | null): Node {
    if (prefix === null) throw FAIL;
    const base = baseName(prefix);
    // Inheriting constructors (`CI1 <base>`) are named after the class they inherit from.
    if (this.peek() === 'C' && this.peek(1) === 'I') {
      this.i += 2;
      if (!/[1-5]/.test(this.next())) throw FAIL;
      return new CtorDtorNode(baseName(this.type()), false);
    }
    const dtor = this.next() === 'D';
    const variant = this.next();
    if (!/[0-5]/.test(variant)) throw FAIL;
    return new CtorDtorNode(base, dtor);
  }

  private unnamedType(): Node {
    if (this.eat('Ut')) {
      const index = this.peek() === '_' ? 1 : this.number() + 2;
      this.expect('_');
      return new BracedNameNode(`{unnamed type#${index}}`);
    }
    if (this.eat('Ul')) {
      // C++20 lambdas may declare template parameters first (Ty, Tn, Tt).
      while (this.peek() === 'T' && /[ynt]/.test(this.peek(1))) this.templateParamDecl();
      const params = this.bareFunctionParams('E');
      this.expect('E');
      const index = this.peek() === '_' ? 1 : this.number() + 2;
      this.expect('_');
      return new ClosureNode(params, index);
    }
    throw FAIL;
  }

  private templateParamDecl(): void {
    this.i += 2;
    if (this.s[this.i - 1] === 'n') this.type();
  }

  private operatorName(): { node: Node; conversion: boolean } {
    const code = this.s.slice(this.i, this.i + 2);
    if (code === 'cv') {
      this.i += 2;
      // In `cvT_IlE` the template arguments belong to the operator, not to T_.
      const saved = this.inConversion;
      this.inConversion = true;
      try {
        return { node: new ConversionNode(this.type()), conversion: true };
      } finally {
        this.inConversion = saved;
      }
    }
    if (code === 'li') {
      this.i += 2;
      return { node: new LiteralOperatorNode(this.sourceName()), conversion: false };
    }
    if (code[0] === 'v' && code[1] !== undefined && code[1] >= '0' && code[1] <= '9') {
      this.i += 2;
      return { node: new OperatorNameNode(' ' + this.sourceName()), conversion: false };
    }
    const op = OPERATORS[code];
    if (!op || EXPRESSION_ONLY.has(code)) throw FAIL;
    this.i += 2;
    return { node: new OperatorNameNode(op.name), conversion: false };
  }

  private substitution(): Node {
    this.expect('S');
    const c = this.peek();
    const special = STD_SUBST[c];
    if (special) {
      this.i++;
      // c++filt runs verbose, so std::string and friends always print in full.
      return new StdSpecialNode(special.full, special.ctor);
    }
    const index = this.seqId(36);
    const node = this.subs[index];
    if (!node) throw FAIL;
    return node;
  }

  private templateParam(): Node {
    this.expect('T');
    const index = this.seqId(10);
    return new TemplateParamNode(index, this.scope);
  }

  private templateArgs(): TemplateArgsNode {
    this.expect('I');
    this.typeDepth++;
    const savedConversion = this.inConversion;
    this.inConversion = false;
    try {
      const args: Node[] = [];
      while (!this.eat('E')) args.push(this.templateArg());
      return new TemplateArgsNode(args);
    } finally {
      this.typeDepth--;
      this.inConversion = savedConversion;
    }
  }

  private templateArg(): Node {
    const c = this.peek();
    if (c === 'L') return this.exprPrimary();
    if (c === 'X') {
      this.i++;
      const e = this.expression();
      this.expect('E');
      return e;
    }
    if (c === 'J') {
      this.i++;
      const items: Node[] = [];
      while (!this.eat('E')) items.push(this.templateArg());
      return new ArgPackNode(items);
    }
    return this.type();
  }

  type(): Node {
    this.typeDepth++;
    try {
      return this.typeInner();
    } finally {
      this.typeDepth--;
    }
  }

  private typeInner(): Node {
    const c = this.peek();
    const builtin = BUILTIN[c];
    if (builtin) {
      this.i++;
      return new NameNode(builtin);
    }
    let node: Node;
    switch (c) {
      case 'u': {
        this.i++;
        node = new NameNode(this.sourceName());
        break;
      }
      case 'r':
      case 'V':
      case 'K': {
        let quals = '';
        for (;;) {
          if (this.eat('r')) quals = ' restrict' + quals;
          else if (this.eat('V')) quals = ' volatile' + quals;
          else if (this.eat('K')) quals = ' const' + quals;
          else break;
        }
        node = new QualifiedTypeNode(this.type(), quals);
        break;
      }
      case 'U': {
        this.i++;
        const qual = this.sourceName();
        node = new VendorQualNode(this.type(), qual);
        break;
      }
      case 'F':
        node = this.functionType('');
        break;
      case 'A':
        node = this.arrayType();
        break;
      case 'M': {
        this.i++;
        const cls = this.type();
        node = new MemberPointerNode(cls, this.type());
        break;
      }
      case 'T': {
        node = this.templateParam();
        if (this.peek() === 'I' && !this.inConversion) {
          this.subs.push(node);
          node = new TemplateNode(node, this.templateArgs());
        }
        break;
      }
      case 'S': {
        if (this.peek(1) === 't') {
          node = this.name().node;
          break;
        }
        node = this.substitution();
        if (this.peek() !== 'I') return node;
        node = new TemplateNode(node, this.templateArgs());
        break;
      }
      case 'P':
        this.i++;
        node = new PointerLikeNode(this.type(), '*');
        break;
      case 'R':
      case 'O':
        this.i++;
        node = new ReferenceNode(this.type(), c === 'O');
        break;
      case 'C':
        this.i++;
        node = new VendorQualNode(this.type(), '_Complex');
        break;
      case 'G':
        this.i++;
        node = new VendorQualNode(this.type(), '_Imaginary');
        break;
      case 'D':
        return this.dType();
      case 'N':
      case 'Z':
        node = this.name().node;
        break;
      default:
        if (c >= '0' && c <= '9') {
          node = this.name().node;
          break;
        }
        throw FAIL;
    }
    this.subs.push(node);
    return node;
  }

  private dType(): Node {
    const c = this.peek(1);
    const builtin = BUILTIN_D[c];
    if (builtin) {
      this.i += 2;
      return new NameNode(builtin);
    }
    let node: Node;
    if (c === 'F') {
      this.i += 2;
      const bits = this.number();
      const x = this.eat('x');
      if (!x) this.expect('_');
      return new NameNode(`_Float${bits}${x ? 'x' : ''}`);
    } else if (c === 'p') {
      this.i += 2;
      node = new PackExpansionNode(this.type());
    } else if (c === 't' || c === 'T') {
      this.i += 2;
      const e = this.expression();
      this.expect('E');
      node = new ExprNode((o) => {
        o.push('decltype (');
        e.print(o);
        o.push(')');
      });
    } else if (c === 'v') {
      this.i += 2;
      const size = this.peek() === '_' ? '' : String(this.number());
      this.expect('_');
      const element = this.type();
      node = new ExprNode((o) => {
        element.print(o);
        o.push(` __vector(${size})`);
      });
    } else if (c === 'o' || c === 'O' || c === 'w' || c === 'x') {
      this.i += 2;
      let spec = '';
      if (c === 'o') spec = ' noexcept';
      else if (c === 'O') {
        const e = this.expression();
        this.expect('E');
        spec = ` noexcept(${e.toString()})`;
      } else if (c === 'w') {
        const types: string[] = [];
        while (!this.eat('E')) types.push(this.type().toString());
        spec = ` throw(${types.join(', ')})`;
      }
      node = this.functionType(spec);
    } else throw FAIL;
    this.subs.push(node);
    return node;
  }

  private functionType(exceptionSpec: string): Node {
    this.expect('F');
    this.eat('Y');
    const ret = this.type();
    const params: Node[] = [];
    let refQual = '';
    for (;;) {
      if (this.eat('E')) break;
      if (this.peek() === 'R' && this.peek(1) === 'E') {
        this.i += 2;
        refQual = ' &';
        break;
      }
      if (this.peek() === 'O' && this.peek(1) === 'E') {
        this.i += 2;
        refQual = ' &&';
        break;
      }
      params.push(this.type());
    }
    const list =
      params.length === 1 && params[0] instanceof NameNode && params[0].name === 'void'
        ? []
        : params;
    return new FunctionTypeNode(ret, list, refQual, exceptionSpec);
  }

  private arrayType(): Node {
    this.expect('A');
    let dimension: Node | null = null;
    if (this.peek() >= '0' && this.peek() <= '9') dimension = new NameNode(String(this.number()));
    else if (this.peek() !== '_') dimension = this.expression();
    this.expect('_');
    return new ArrayNode(this.type(), dimension);
  }

  // ---- expressions ----

  private exprPrimary(): Node {
    this.expect('L');
    if (this.eat('_Z') || this.eat('Z')) {
      const encoding = this.encoding(true);
      this.expect('E');
      return encoding;
    }
    const type = this.type();
    const start = this.i;
    while (this.peek() !== 'E') this.next();
    const raw = this.s.slice(start, this.i);
    this.expect('E');
    const negative = raw.startsWith('n');
    const value = (negative ? '-' : '') + (negative ? raw.slice(1) : raw);
    const typeName = type instanceof NameNode ? type.name : null;
    if (typeName === 'bool' && (raw === '0' || raw === '1')) {
      return new ExprNode((o) => o.push(raw === '1' ? 'true' : 'false'));
    }
    const code = Object.keys(BUILTIN).find((k) => BUILTIN[k] === typeName);
    const suffix = code === undefined ? undefined : LITERAL_SUFFIX[code];
    if (suffix !== undefined) return new ExprNode((o) => o.push(value + suffix));
    if (raw === '') return type;
    return new ExprNode((o) => {
      o.push('(');
      type.print(o);
      o.push(')');
      o.push(typeName === 'float' || typeName === 'double' ? `[${raw}]` : value);
    });
  }

  private subExpr(e: Node): (o: Out) => void {
    return (o) => {
      const simple =
        e instanceof SimpleExprNode ||
        e instanceof NameNode ||
        e instanceof NestedNode ||
        e instanceof TemplateNode;
      if (!simple) o.push('(');
      e.print(o);
      if (!simple) o.push(')');
    };
  }

  private expression(): Node {
    const code = this.s.slice(this.i, this.i + 2);
    const c = this.peek();
    if (c === 'L') return this.exprPrimary();
    if (c === 'T') return this.templateParam();
    if (code === 'fp' || code === 'fL') {
      this.i += 2;
      if (code === 'fL') {
        this.number();
        this.expect('p');
      }
      while (/[rVK]/.test(this.peek())) this.i++;
      const index = this.peek() === '_' ? 1 : this.number() + 2;
      this.expect('_');
      return new SimpleExprNode((o) => o.push(`{parm#${index}}`));
    }
    if (code === 'tl' || code === 'il') {
      this.i += 2;
      const type = code === 'tl' ? this.type() : null;
      const items: Node[] = [];
      while (!this.eat('E')) items.push(this.expression());
      return new ExprNode((o) => {
        type?.print(o);
        o.push('{');
        printList(o, items);
        o.push('}');
      });
    }
    if (code === 'sr') {
      this.i += 2;
      return this.unresolvedName();
    }
    if (code === 'sp') {
      this.i += 2;
      return new PackExpansionNode(this.expression());
    }
    if (code === 'sZ') {
      this.i += 2;
      const e = this.expression();
      return new ExprNode((o) => {
        o.push('sizeof...(');
        e.print(o);
        o.push(')');
      });
    }
    if (code === 'cl') {
      this.i += 2;
      const fn = this.expression();
      const args: Node[] = [];
      while (!this.eat('E')) args.push(this.expression());
      const callee = this.subExpr(fn);
      return new ExprNode((o) => {
        callee(o);
        o.push('(');
        args.forEach((a, k) => {
          if (k > 0) o.push(', ');
          a.print(o);
        });
        o.push(')');
      });
    }
    if (code === 'cv') {
      this.i += 2;
      const type = this.type();
      const args: Node[] = [];
      if (this.eat('_')) while (!this.eat('E')) args.push(this.expression());
      else args.push(this.expression());
      return new ExprNode((o) => {
        o.push('(');
        type.print(o);
        o.push(')');
        args.forEach((a, k) => {
          if (k > 0) o.push(', ');
          this.subExpr(a)(o);
        });
      });
    }
    if (code === 'st' || code === 'at') {
      this.i += 2;
      const type = this.type();
      const name = code === 'st' ? 'sizeof ' : 'alignof ';
      return new ExprNode((o) => {
        o.push(name + '(');
        type.print(o);
        o.push(')');
      });
    }
    if (['dc', 'sc', 'cc', 'rc'].includes(code)) {
      this.i += 2;
      const type = this.type();
      const e = this.expression();
      const name = OPERATORS[code]!.name;
      return new ExprNode((o) => {
        o.push(name + '<');
        type.print(o);
        o.push('>(');
        e.print(o);
        o.push(')');
      });
    }
    if (/^[0-9]/.test(c) || code === 'on' || code === 'dn') {
      return this.unresolvedName();
    }
    const op = OPERATORS[code];
    if (!op) throw FAIL;
    this.i += 2;
    if (op.arity === 1) {
      const operand = this.expression();
      const inner = this.subExpr(operand);
      return new ExprNode((o) => {
        o.push(op.name);
        inner(o);
      });
    }
    if (op.arity === 2) {
      const left = this.subExpr(this.expression());
      const right = this.subExpr(this.expression());
      const wrap = op.name.includes('>') && op.name !== '->' && op.name !== '->*';
      return new ExprNode((o) => {
        if (wrap) o.push('(');
        left(o);
        o.push(op.name);
        right(o);
        if (wrap) o.push(')');
      });
    }
    const a = this.subExpr(this.expression());
    const b = this.subExpr(this.expression());
    const d = this.subExpr(this.expression());
    return new ExprNode((o) => {
      a(o);
      o.push('?');
      b(o);
      o.push(' : ');
      d(o);
    });
  }

  private unresolvedName(): Node {
    if (this.eat('on')) {
      const op = this.operatorName().node;
      return this.peek() === 'I' ? new TemplateNode(op, this.templateArgs()) : op;
    }
    if (this.eat('dn')) {
      return new NameNode('~' + this.type().toString());
    }
    if (this.eat('N')) {
      let node: Node = this.peek() === 'T' ? this.templateParam() : this.type();
      if (this.peek() === 'I') node = new TemplateNode(node, this.templateArgs());
      while (!this.eat('E')) node = new NestedNode(node, this.simpleId());
      return new NestedNode(node, this.simpleId());
    }
    if (this.peek() >= '0' && this.peek() <= '9') return this.simpleId();
    const scope = this.type();
    return new NestedNode(scope, this.simpleId());
  }

  private simpleId(): Node {
    if (this.peek() === 'o' && this.peek(1) === 'n') return this.unresolvedName();
    const name: Node = new NameNode(this.sourceName());
    return this.peek() === 'I' ? new TemplateNode(name, this.templateArgs()) : name;
  }
}

/** The unqualified class name a constructor or destructor is named after. */
function baseName(node: Node): Node {
  if (node instanceof NestedNode) return baseName(node.name);
  if (node instanceof TemplateNode) return baseName(node.name);
  if (node instanceof AbiTagNode) return baseName(node.name);
  if (node instanceof StdSpecialNode) return new NameNode(node.ctorName);
  if (node instanceof TemplateParamNode) {
    const target = node.resolve();
    return target === node ? node : baseName(target);
  }
  return node;
}

/**
 * GCC clone suffixes after the mangled name (`.constprop.0`, `.isra.0`, `.part.1`, `.cold`,
 * `.lto_priv.0`, `.llvm.123`); each prints as c++filt does: ` [clone .part.0]`.
 */
function cloneSuffixes(rest: string): string | null {
  let out = '';
  let i = 0;
  while (i < rest.length) {
    const start = i;
    if (rest[i] !== '.') return null;
    i++;
    if (!/[a-z0-9_]/.test(rest[i] ?? '')) return null;
    while (/[a-z0-9_]/.test(rest[i] ?? '')) i++;
    while (rest[i] === '.' && /[0-9]/.test(rest[i + 1] ?? '')) {
      i++;
      while (/[0-9]/.test(rest[i] ?? '')) i++;
    }
    out += ` [clone ${rest.slice(start, i)}]`;
  }
  return out;
}

/** Demangles one `_Z…` name; returns null if it is not a valid Itanium mangled name. */
export function demangleItanium(mangled: string): string | null {
  if (!mangled.startsWith('_Z')) return null;
  try {
    const parser = new Parser(mangled);
    const node = parser.parseMangled();
    const rest = mangled.slice(parser.position);
    // c++filt accepts clone suffixes after functions only (`_ZL3foo.lto_priv.0` stays mangled).
    if (rest !== '' && !(node instanceof FunctionEncodingNode)) return null;
    const suffix = cloneSuffixes(rest);
    if (suffix === null) return null;
    return node.toString() + suffix;
  } catch (error) {
    if (error instanceof DemangleError || error instanceof RangeError) return null;
    throw error;
  }
}

export { Out };
