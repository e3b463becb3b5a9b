import { SourceError } from '../expressions/index.js';

/** A scatter file armlink would refuse, or one we cannot read. */
export class ScatterError extends SourceError {
  override readonly name = 'ScatterError';
}
