import { formatPosition, type SourcePosition } from '../linker/errors.js';

/** An ICF file ILINK would refuse, or one we cannot read (with file:line:column). */
export class IcfError extends Error {
  readonly position: SourcePosition | undefined;

  constructor(message: string, position?: SourcePosition) {
    super(position ? `${formatPosition(position)}: ${message}` : message);
    this.name = 'IcfError';
    this.position = position;
  }
}

export interface IcfWarning {
  message: string;
  position?: SourcePosition;
}
