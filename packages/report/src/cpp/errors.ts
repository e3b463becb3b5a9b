import { formatPosition, type SourcePosition } from '../linker/errors.js';

/** A file the preprocessor cannot read the way armcc -E / armclang -E would (with file:line:column). */
export class PreprocessError extends Error {
  readonly position: SourcePosition | undefined;

  constructor(message: string, position?: SourcePosition) {
    super(position ? `${formatPosition(position)}: ${message}` : message);
    this.name = 'PreprocessError';
    this.position = position;
  }
}

/** What the preprocessor says but does not stop for (#warning, redefined macros, odd quotes). */
export interface PreprocessWarning {
  message: string;
  position: SourcePosition;
}
