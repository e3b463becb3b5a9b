import { SourceError } from '../expressions/index.js';
import type { SourcePosition } from '../linker/errors.js';

/** A file the preprocessor cannot read the way armcc -E / armclang -E would. */
export class PreprocessError extends SourceError {
  override readonly name = 'PreprocessError';
}

/** What the preprocessor says but does not stop for (#warning, redefined macros). */
export interface PreprocessWarning {
  message: string;
  position: SourcePosition;
}
