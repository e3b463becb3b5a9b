/** Where in which script something was found; line and column are 1-based. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

export type LinkerScriptErrorCode =
  | 'syntax'
  | 'undefined-symbol'
  | 'undefined-region'
  | 'divide-by-zero'
  | 'number-too-large'
  | 'needs-elf'
  | 'include-not-found'
  | 'include-cycle'
  | 'include-too-deep'
  | 'file-not-found'
  | 'invalid-defsym'
  | 'invalid-attributes'
  | 'evaluation-limit';

/** Every failure of the linker-script reader is one of these, naming file, line and column. */
export class LinkerScriptError extends Error {
  readonly code: LinkerScriptErrorCode;
  readonly position: SourcePosition | undefined;

  constructor(code: LinkerScriptErrorCode, message: string, position?: SourcePosition) {
    super(position ? `${formatPosition(position)}: ${message}` : message);
    this.name = 'LinkerScriptError';
    this.code = code;
    this.position = position;
  }
}

export function formatPosition(position: SourcePosition): string {
  return `${position.file}:${position.line}:${position.column}`;
}

/** Non-fatal findings (what ld prints as warnings, plus things we cannot know without the ELF). */
export interface LinkerWarning {
  message: string;
  position?: SourcePosition;
}
