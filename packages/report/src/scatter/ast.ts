import type { SourcePosition } from '../linker/errors.js';

/** Expressions of scatter files (armlink: C operators, AND/OR/LAND/LOR, built-in functions). */
export type ScatterExpr =
  | { kind: 'number'; value: bigint; position: SourcePosition }
  | { kind: 'unary'; op: '+' | '-' | '~' | '!'; operand: ScatterExpr; position: SourcePosition }
  | {
      kind: 'binary';
      op: string;
      left: ScatterExpr;
      right: ScatterExpr;
      position: SourcePosition;
    }
  | {
      kind: 'conditional';
      condition: ScatterExpr;
      whenTrue: ScatterExpr;
      whenFalse: ScatterExpr;
      position: SourcePosition;
    }
  /** `ImageLimit(ER)`, `AlignExpr(+0, 8)`, `defined(sym)`…; `name` is lower-cased. */
  | { kind: 'call'; name: string; args: ScatterExpr[]; position: SourcePosition }
  /** A bare name: a region or symbol argument of a call, or an undefined macro. */
  | { kind: 'name'; name: string; position: SourcePosition };

/** `EMPTY`, `ALIGN 8`…: the keyword upper-cased, with its argument as written. */
export interface RegionAttribute {
  keyword: string;
  argument?: { text: string; expr?: ScatterExpr };
  position: SourcePosition;
}

/** `module_pattern (selector, …)`, e.g. `*.o (RESET, +First)` or `.ANY (+RW +ZI)`. */
export interface InputSectionDescription {
  module: string;
  selectors: string[];
  position: SourcePosition;
}

interface RegionDecl {
  name: string;
  base: ScatterExpr;
  attributes: RegionAttribute[];
  /** Max size (load region, execution region) or, for EMPTY, the length (negative: grows down). */
  size?: ScatterExpr;
  position: SourcePosition;
}

export interface ExecutionRegionDecl extends RegionDecl {
  inputs: InputSectionDescription[];
}

export interface LoadRegionDecl extends RegionDecl {
  executionRegions: ExecutionRegionDecl[];
  asserts: ScatterExpr[];
}

export interface ScatterFileAst {
  loadRegions: LoadRegionDecl[];
  asserts: ScatterExpr[];
}
