import { formatPosition, type SourcePosition } from '../linker/errors.js';

/** A scatter file armlink would refuse, or one we cannot read (with file:line:column). */
export class ScatterError extends Error {
  readonly position: SourcePosition | undefined;

  constructor(message: string, position?: SourcePosition) {
    super(position ? `${formatPosition(position)}: ${message}` : message);
    this.name = 'ScatterError';
    this.position = position;
  }
}
