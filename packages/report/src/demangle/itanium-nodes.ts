/**
 * Syntax tree of a demangled Itanium C++ name and its printer. The printed form follows GNU
 * c++filt (libiberty) exactly, because that is what firmware developers compare against:
 * `char const*`, `void (*)(int)`, `int [3]`, `> >`, `{lambda()#1}`, `[abi:cxx11]`.
 *
 * Declarator types (pointers to functions, arrays) print inside-out, so every node prints a left
 * part and an optional right part around whatever encloses it.
 */

export class Out {
  s = '';
  /** Tracked separately: indexing a concatenated string would flatten it on every call. */
  private lastChar = '';
  push(text: string): void {
    if (text.length === 0) return;
    this.s += text;
    this.lastChar = text[text.length - 1]!;
  }
  last(): string {
    return this.lastChar;
  }
  /** Drops what was printed after `length` (an empty pack's separator). */
  truncate(length: number, lastChar: string): void {
    this.s = this.s.slice(0, length);
    this.lastChar = lastChar;
  }
}

/** Whether a type prints anything after the declarator it encloses (function or array types). */
export function hasRightPart(node: Node): boolean {
  const probe = new Out();
  node.right(probe);
  return probe.s !== '';
}

export abstract class Node {
  abstract left(o: Out): void;
  right(_o: Out): void {}
  /** Function types and arrays need a `(` around an enclosing pointer or reference. */
  get declarator(): 'function' | 'array' | null {
    return null;
  }
  /** The node a template parameter or substitution resolves to, for structural checks. */
  resolve(): Node {
    return this;
  }
  print(o: Out): void {
    this.left(o);
    this.right(o);
  }
  toString(): string {
    const o = new Out();
    this.print(o);
    return o.s;
  }
}

export class NameNode extends Node {
  constructor(readonly name: string) {
    super();
  }
  left(o: Out): void {
    o.push(this.name);
  }
}

/** `std::string` and friends: short form normally, full form before a constructor name. */
export class StdSpecialNode extends Node {
  constructor(
    readonly text: string,
    readonly ctorName: string,
  ) {
    super();
  }
  left(o: Out): void {
    o.push(this.text);
  }
}

export class NestedNode extends Node {
  constructor(
    readonly prefix: Node,
    readonly name: Node,
  ) {
    super();
  }
  left(o: Out): void {
    this.prefix.print(o);
    o.push('::');
    this.name.print(o);
  }
}

export function printList(o: Out, items: readonly Node[]): void {
  let first = true;
  for (const item of items) {
    const before = o.s.length;
    if (!first) o.push(', ');
    const mark = o.s.length;
    item.print(o);
    // An empty pack prints nothing and must not leave a dangling separator.
    // c++filt forgets the separator's last character too, so `<a<b>, >` ends in `>>`.
    if (o.s.length === mark) o.truncate(before, ' ');
    else first = false;
  }
}

export class TemplateArgsNode extends Node {
  constructor(readonly args: Node[]) {
    super();
  }
  left(o: Out): void {
    if (o.last() === '<') o.push(' ');
    o.push('<');
    printList(o, this.args);
    if (o.last() === '>') o.push(' ');
    o.push('>');
  }
}

export class TemplateNode extends Node {
  constructor(
    readonly name: Node,
    readonly args: TemplateArgsNode,
  ) {
    super();
  }
  left(o: Out): void {
    this.name.print(o);
    this.args.print(o);
  }
}

export class ArgPackNode extends Node {
  constructor(readonly items: Node[]) {
    super();
  }
  left(o: Out): void {
    printList(o, this.items);
  }
}

/** A template parameter; resolved late because conversion operators refer forward. */
/** Set while printing a generic lambda's signature, whose parameters print as `auto:N`. */
let inLambdaSignature = 0;

export class TemplateParamNode extends Node {
  constructor(
    readonly index: number,
    readonly scope: { args: Node[] | null },
  ) {
    super();
  }
  private get autoParam(): boolean {
    return inLambdaSignature > 0;
  }
  /** Set while this parameter's argument is being resolved or printed. */
  private busy = false;
  /** `_Z1fIXplT_Li1EEEvv`: an argument that contains itself is malformed (c++filt rejects it). */
  private enter(): void {
    if (this.busy) throw new RangeError('template parameter refers to itself');
    this.busy = true;
  }
  override resolve(): Node {
    const arg = this.autoParam ? undefined : this.scope.args?.[this.index];
    if (!arg) return this;
    this.enter();
    try {
      return arg.resolve();
    } finally {
      this.busy = false;
    }
  }
  override get declarator(): 'function' | 'array' | null {
    const target = this.resolve();
    return target === this ? null : target.declarator;
  }
  left(o: Out): void {
    if (this.autoParam) {
      o.push(`auto:${this.index + 1}`);
      return;
    }
    const target = this.resolve();
    if (target === this) {
      o.push(this.index === 0 ? 'T_' : `T${this.index - 1}_`);
      return;
    }
    this.enter();
    try {
      target.left(o);
    } finally {
      this.busy = false;
    }
  }
  override right(o: Out): void {
    const target = this.resolve();
    if (target === this || this.autoParam) return;
    this.enter();
    try {
      target.right(o);
    } finally {
      this.busy = false;
    }
  }
}

export class AbiTagNode extends Node {
  constructor(
    readonly name: Node,
    readonly tag: string,
  ) {
    super();
  }
  left(o: Out): void {
    this.name.print(o);
    o.push(`[abi:${this.tag}]`);
  }
}

export class CtorDtorNode extends Node {
  constructor(
    readonly base: Node,
    readonly dtor: boolean,
  ) {
    super();
  }
  left(o: Out): void {
    if (this.dtor) o.push('~');
    this.base.print(o);
  }
}

export class OperatorNameNode extends Node {
  constructor(readonly op: string) {
    super();
  }
  left(o: Out): void {
    o.push(/^[a-z]/.test(this.op) ? `operator ${this.op}` : `operator${this.op}`);
  }
}

export class ConversionNode extends Node {
  constructor(readonly type: Node) {
    super();
  }
  left(o: Out): void {
    o.push('operator ');
    this.type.print(o);
  }
}

export class LiteralOperatorNode extends Node {
  constructor(readonly suffix: string) {
    super();
  }
  left(o: Out): void {
    o.push(`operator"" ${this.suffix}`);
  }
}

export class ClosureNode extends Node {
  constructor(
    readonly params: Node[],
    readonly number: number,
  ) {
    super();
  }
  left(o: Out): void {
    o.push('{lambda(');
    inLambdaSignature++;
    try {
      printList(o, this.params);
    } finally {
      inLambdaSignature--;
    }
    o.push(`)#${this.number}}`);
  }
}

export class BracedNameNode extends Node {
  constructor(readonly text: string) {
    super();
  }
  left(o: Out): void {
    o.push(this.text);
  }
}

export class LocalNameNode extends Node {
  constructor(
    readonly encoding: Node,
    readonly entity: Node,
  ) {
    super();
  }
  left(o: Out): void {
    this.encoding.print(o);
    o.push('::');
    this.entity.print(o);
  }
}

export class SpecialNameNode extends Node {
  constructor(
    readonly prefix: string,
    readonly child: Node,
    readonly suffix = '',
  ) {
    super();
  }
  left(o: Out): void {
    o.push(this.prefix);
    this.child.print(o);
    o.push(this.suffix);
  }
}

export class CtorVtableNode extends Node {
  constructor(
    readonly derived: Node,
    readonly base: Node,
  ) {
    super();
  }
  left(o: Out): void {
    o.push('construction vtable for ');
    this.base.print(o);
    o.push('-in-');
    this.derived.print(o);
  }
}

export class QualifiedTypeNode extends Node {
  constructor(
    readonly child: Node,
    readonly quals: string,
  ) {
    super();
  }
  override get declarator(): 'function' | 'array' | null {
    return this.child.declarator;
  }
  /** `K T_` with `T_ = int const` prints one `const`, as c++filt does. */
  private ownQuals(): string {
    const inner = this.child.resolve();
    if (!(inner instanceof QualifiedTypeNode)) return this.quals;
    return this.quals
      .split(' ')
      .filter((q) => q !== '' && !inner.quals.split(' ').includes(q))
      .map((q) => ` ${q}`)
      .join('');
  }
  left(o: Out): void {
    this.child.left(o);
    // Qualifiers of a function type belong after its parameter list, before a ref-qualifier.
    if (this.child.declarator !== 'function') o.push(this.ownQuals());
  }
  override right(o: Out): void {
    const fn = this.child.resolve();
    if (fn instanceof FunctionTypeNode) fn.rightWithQuals(o, this.quals);
    else {
      this.child.right(o);
      if (this.child.declarator === 'function') o.push(this.quals);
    }
  }
}

/** Pointer, references, complex and imaginary: a suffix on the pointee's declarator. */
export class PointerLikeNode extends Node {
  constructor(
    readonly pointee: Node,
    readonly marker: string,
  ) {
    super();
  }
  left(o: Out): void {
    const d = this.pointee.declarator;
    this.pointee.left(o);
    if (d === 'function') o.push('(');
    else if (d === 'array') o.push(' (');
    o.push(this.marker);
  }
  override right(o: Out): void {
    if (this.pointee.declarator) o.push(')');
    this.pointee.right(o);
  }
}

export class ReferenceNode extends Node {
  constructor(
    readonly pointee: Node,
    readonly rvalue: boolean,
  ) {
    super();
  }
  /** Reference collapsing: `T&&` with `T = int&` is `int&`. */
  private collapse(): { pointee: Node; rvalue: boolean } {
    let pointee: Node = this.pointee;
    let rvalue = this.rvalue;
    for (;;) {
      const target = pointee.resolve();
      if (!(target instanceof ReferenceNode)) break;
      rvalue = rvalue && target.rvalue;
      pointee = target.pointee;
    }
    return { pointee, rvalue };
  }
  left(o: Out): void {
    const { pointee, rvalue } = this.collapse();
    new PointerLikeNode(pointee, rvalue ? '&&' : '&').left(o);
  }
  override right(o: Out): void {
    const { pointee, rvalue } = this.collapse();
    new PointerLikeNode(pointee, rvalue ? '&&' : '&').right(o);
  }
}

export class MemberPointerNode extends Node {
  constructor(
    readonly cls: Node,
    readonly member: Node,
  ) {
    super();
  }
  left(o: Out): void {
    const fn = this.member.declarator === 'function';
    this.member.left(o);
    o.push(fn ? '(' : ' ');
    this.cls.print(o);
    o.push('::*');
  }
  override right(o: Out): void {
    if (this.member.declarator === 'function') o.push(')');
    this.member.right(o);
  }
}

export class ArrayNode extends Node {
  constructor(
    readonly element: Node,
    readonly dimension: Node | null,
  ) {
    super();
  }
  override get declarator(): 'function' | 'array' | null {
    return 'array';
  }
  left(o: Out): void {
    this.element.left(o);
  }
  override right(o: Out): void {
    // `int [3][4]`: only the first dimension is separated from the element type.
    if (o.last() !== ']') o.push(' ');
    o.push('[');
    this.dimension?.print(o);
    o.push(']');
    this.element.right(o);
  }
}

export class FunctionTypeNode extends Node {
  constructor(
    readonly ret: Node,
    readonly params: Node[],
    readonly refQual: string,
    readonly exceptionSpec: string,
  ) {
    super();
  }
  override get declarator(): 'function' | 'array' | null {
    return 'function';
  }
  left(o: Out): void {
    this.ret.left(o);
    if (!hasRightPart(this.ret)) o.push(' ');
  }
  override right(o: Out): void {
    this.rightWithQuals(o, '');
  }
  rightWithQuals(o: Out, quals: string): void {
    o.push('(');
    printList(o, this.params);
    o.push(')');
    this.ret.right(o);
    o.push(quals);
    o.push(this.refQual);
    o.push(this.exceptionSpec);
  }
}

export class FunctionEncodingNode extends Node {
  hideReturn = false;
  constructor(
    readonly name: Node,
    readonly ret: Node | null,
    readonly params: Node[],
    readonly quals: string,
  ) {
    super();
  }
  left(o: Out): void {
    const ret = this.hideReturn ? null : this.ret;
    if (ret) {
      ret.left(o);
      // `int* f()` but `void (*f())(int)`: no space where the return type wraps the name.
      if (!hasRightPart(ret)) o.push(' ');
    }
    this.name.print(o);
    o.push('(');
    printList(o, this.params);
    o.push(')');
    ret?.right(o);
    o.push(this.quals);
  }
}

export class VendorQualNode extends Node {
  constructor(
    readonly child: Node,
    readonly qual: string,
  ) {
    super();
  }
  left(o: Out): void {
    this.child.print(o);
    o.push(` ${this.qual}`);
  }
}

/** `Dp`: a pack expansion prints the pack's elements, or `T...` when unresolved. */
export class PackExpansionNode extends Node {
  constructor(readonly pattern: Node) {
    super();
  }
  left(o: Out): void {
    const target = this.pattern.resolve();
    if (target instanceof ArgPackNode) {
      target.print(o);
      return;
    }
    const packs = findPack(this.pattern);
    if (packs) {
      // A pattern around a pack (`Dp RT_`): one copy per element with the element substituted.
      const items = packs.items.map((item) => new SubstitutedNode(this.pattern, packs.param, item));
      printList(o, items);
      return;
    }
    this.pattern.print(o);
    o.push('...');
  }
}

function findPack(node: Node): { param: TemplateParamNode; items: Node[] } | null {
  if (node instanceof TemplateParamNode) {
    const t = node.resolve();
    return t instanceof ArgPackNode ? { param: node, items: t.items } : null;
  }
  for (const child of Object.values(node)) {
    if (child instanceof Node) {
      const found = findPack(child);
      if (found) return found;
    }
  }
  return null;
}

/** Prints `pattern` with one template parameter temporarily bound to one pack element. */
class SubstitutedNode extends Node {
  constructor(
    readonly pattern: Node,
    readonly param: TemplateParamNode,
    readonly element: Node,
  ) {
    super();
  }
  private with<T>(fn: () => T): T {
    const scope = this.param.scope;
    const saved = scope.args;
    const args = (saved ?? []).slice();
    args[this.param.index] = this.element;
    scope.args = args;
    try {
      return fn();
    } finally {
      scope.args = saved;
    }
  }
  override get declarator(): 'function' | 'array' | null {
    return this.with(() => this.pattern.declarator);
  }
  left(o: Out): void {
    this.with(() => this.pattern.left(o));
  }
  override right(o: Out): void {
    this.with(() => this.pattern.right(o));
  }
}

/** Expressions inside `decltype` and template arguments, printed as libiberty does. */
export class ExprNode extends Node {
  constructor(readonly text: (o: Out) => void) {
    super();
  }
  left(o: Out): void {
    this.text(o);
  }
}

/** Leaves that print without parentheses when used as an operand. */
export class SimpleExprNode extends ExprNode {}
