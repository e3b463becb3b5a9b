import type { SourcePosition } from '../linker/errors.js';

/** ILINK expressions: C operators, symbols and the function-like operators. */
export type IcfExpr =
  | { kind: 'number'; value: bigint; position: SourcePosition }
  | { kind: 'symbol'; name: string; position: SourcePosition }
  | { kind: 'unary'; op: '+' | '-' | '!' | '~'; operand: IcfExpr; position: SourcePosition }
  | { kind: 'binary'; op: string; left: IcfExpr; right: IcfExpr; position: SourcePosition }
  | {
      kind: 'conditional';
      condition: IcfExpr;
      whenTrue: IcfExpr;
      whenFalse: IcfExpr;
      position: SourcePosition;
    }
  /** start/end/size/isempty take a region, isdefinedsymbol a name, the others expressions. */
  | {
      kind: 'call';
      name: string;
      args: IcfExpr[];
      region?: RegionExpr;
      symbol?: string;
      position: SourcePosition;
    };

/** Region expressions: literals, region names, `[]`, and `|` `&` `-` between them. */
export type RegionExpr =
  | {
      kind: 'literal';
      memory?: string;
      from: IcfExpr;
      to?: IcfExpr;
      size?: IcfExpr;
      repeat?: IcfExpr;
      displacement?: IcfExpr;
      position: SourcePosition;
    }
  | { kind: 'region'; name: string; position: SourcePosition }
  | { kind: 'empty'; position: SourcePosition }
  | {
      kind: 'op';
      op: '|' | '&' | '-';
      left: RegionExpr;
      right: RegionExpr;
      position: SourcePosition;
    };

/**
 * One item of a section selection: `ro code section .text*`, `block CSTACK`, `last block HEAP`,
 * `section .intvec`, `readwrite`, or an anonymous `block with … { … }`.
 */
export interface SelectorItem {
  /** Section attributes as written, lower-cased: readonly, rw, zi, code, data… */
  attributes: string[];
  section?: string;
  object?: string;
  symbol?: string;
  block?: string;
  overlay?: string;
  /** Items of an anonymous block `block with … { … }`. */
  nested?: SelectorItem[];
  /** SEGGER's `copy of …`: the initial values of those items (stored in read-only memory). */
  copyOf?: SelectorItem[];
  position: SourcePosition;
}

export type PlacementKind = 'in' | 'at address' | 'at start' | 'at end';

export type Statement =
  | {
      kind: 'symbol';
      name: string;
      exported: boolean;
      value: IcfExpr;
      position: SourcePosition;
    }
  | { kind: 'memory'; name: string; size: IcfExpr; position: SourcePosition }
  | {
      kind: 'region';
      name: string;
      /** `define rom region` / `define ram region`. */
      declared?: 'rom' | 'ram';
      value: RegionExpr;
      position: SourcePosition;
    }
  | {
      kind: 'block';
      /** Overlays may be defined in several directives that add to one another. */
      overlay: boolean;
      name: string;
      /** `size = …` given (a stack or heap reserve rather than a group of sections). */
      sized: boolean;
      items: SelectorItem[];
      position: SourcePosition;
    }
  | {
      kind: 'initialize';
      how: 'copy' | 'manually' | 'symbol' | 'calling';
      items: SelectorItem[];
      position: SourcePosition;
    }
  | { kind: 'noInitialize'; items: SelectorItem[]; position: SourcePosition }
  | {
      kind: 'place';
      /** `"name":` before the directive; ILINK names output sections after it. */
      label?: string;
      placement: PlacementKind;
      region?: RegionExpr;
      address?: IcfExpr;
      memory?: string;
      /** `place ram at …` / `place rom at …`. */
      declared?: 'rom' | 'ram';
      noload: boolean;
      items: SelectorItem[];
      position: SourcePosition;
    }
  | {
      kind: 'if';
      condition: IcfExpr;
      then: Statement[];
      else: Statement[];
      position: SourcePosition;
    }
  | { kind: 'include'; file: string; position: SourcePosition }
  | { kind: 'error'; message: string; position: SourcePosition }
  | { kind: 'check'; condition: IcfExpr; position: SourcePosition }
  /** Directives that do not change where memory is (keep, export symbol, build for, …). */
  | { kind: 'other'; keyword: string; position: SourcePosition };
