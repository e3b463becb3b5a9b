import { formatPosition, type SourcePosition } from '../linker/errors.js';

/** An error in a configuration file, its message led by file:line:column. */
export class SourceError extends Error {
  readonly position: SourcePosition | undefined;

  constructor(message: string, position?: SourcePosition) {
    super(position ? `${formatPosition(position)}: ${message}` : message);
    this.position = position;
  }
}
