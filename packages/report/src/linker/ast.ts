import type { SourcePosition } from './errors.js';

export type Expr =
  | { kind: 'number'; value: bigint; position: SourcePosition }
  | { kind: 'symbol'; name: string; position: SourcePosition }
  | { kind: 'dot'; position: SourcePosition }
  | { kind: 'unary'; op: '-' | '+' | '!' | '~'; operand: Expr; position: SourcePosition }
  | { kind: 'binary'; op: string; left: Expr; right: Expr; position: SourcePosition }
  | {
      kind: 'conditional';
      condition: Expr;
      whenTrue: Expr;
      whenFalse: Expr;
      position: SourcePosition;
    }
  /** Built-ins taking expressions: ABSOLUTE, ALIGN, MAX, MIN, LOG2CEIL, NEXT, BLOCK, … */
  | { kind: 'call'; name: string; args: Expr[]; position: SourcePosition }
  /** Built-ins taking a name: ORIGIN, LENGTH, DEFINED, ADDR, SIZEOF, LOADADDR, ALIGNOF, CONSTANT. */
  | { kind: 'nameCall'; name: string; argument: string; position: SourcePosition }
  | { kind: 'segmentStart'; segment: string; fallback: Expr; position: SourcePosition };

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '<<=' | '>>=' | '&=' | '|=';
export const ASSIGN_OPS: readonly string[] = [
  '=',
  '+=',
  '-=',
  '*=',
  '/=',
  '<<=',
  '>>=',
  '&=',
  '|=',
];

export interface Assignment {
  kind: 'assign';
  /** '.' is the location counter. */
  target: string;
  op: AssignOp;
  value: Expr;
  /** PROVIDE/PROVIDE_HIDDEN only define a symbol that is not defined yet. */
  provide: boolean;
  hidden: boolean;
  /** Assignments inside an output section are relative to a location counter we cannot know. */
  inOutputSection: boolean;
  /** Set for `--defsym` statements. */
  fromDefsym: boolean;
  position: SourcePosition;
}

export interface MemoryRegionDecl {
  name: string;
  origin: Expr;
  length: Expr;
  /** Attribute words as written, e.g. ['rw', '!x'] for `(rw!x)`. */
  attributeWords: string[];
  position: SourcePosition;
}

export interface OutputSectionDecl {
  kind: 'outputSection';
  name: string;
  address: Expr | undefined;
  loadAddress: Expr | undefined;
  region: string | undefined;
  loadRegion: string | undefined;
  /** NOLOAD, COPY, INFO, OVERLAY, DSECT, READONLY, … when given. */
  type: string | undefined;
  /** The statement applies only when its input sections are all read-only / some writable. */
  constraint?: 'ONLY_IF_RO' | 'ONLY_IF_RW';
  body: Statement[];
  position: SourcePosition;
}

export type Statement =
  | Assignment
  | { kind: 'memory'; regions: MemoryRegionDecl[]; position: SourcePosition }
  | { kind: 'sections'; body: Statement[]; position: SourcePosition }
  | OutputSectionDecl
  | { kind: 'regionAlias'; alias: string; region: string; position: SourcePosition }
  | { kind: 'assert'; condition: Expr; message: string; position: SourcePosition }
  | { kind: 'command'; name: string; argument: string | undefined; position: SourcePosition };
