import { SourceError } from '../expressions/index.js';
import type { SourcePosition } from '../linker/errors.js';

/** An ICF file ILINK would refuse, or one we cannot read. */
export class IcfError extends SourceError {
  override readonly name = 'IcfError';
}

export interface IcfWarning {
  message: string;
  position?: SourcePosition;
}
