import { BadRequestException } from '@nestjs/common';
import {
  blockHash,
  decodeBlock,
  encodeBlock,
  recordProblem,
  type Block,
  type VersionRecord,
} from '@memtrail/symbol-blocks';
import { packedHash, unpackBlocks, type PackedBlocks } from './decode/packed-blocks.js';
import { blockSymbolFaults } from './validate-upload.js';

export const blockFormRefused = (problem: string) =>
  new BadRequestException(`Upload in block form refused: ${problem}`);

/** What checking a block-form upload against its target needs (DecodePool.check). */
export interface SentBlocksCheck {
  record: VersionRecord;
  /** The blocks sent that the record places and the target does not hold. */
  sent: PackedBlocks;
  /** Symbol counts of the blocks the record places that the target holds. */
  held: ReadonlyMap<string, number>;
}

/** The symbol count of each sent block, in order. */
export type CheckedBlocks = number[];

/**
 * Checks the blocks a block-form upload places that its target does not hold yet, each as the
 * server would have built it: its bytes hash to its name, are a block in canonical form, and
 * hold only symbols a JSON upload could hold. Then the record is checked against the blocks
 * (recordProblem). Throws the 400 the client gets.
 */
export function checkSentBlocks({ record, sent, held }: SentBlocksCheck): CheckedBlocks {
  const counts = unpackBlocks(sent).map(({ hash, data }) => symbolsOf(hash, data));
  const sentCounts = new Map(counts.map((n, i) => [packedHash(sent, i), n]));
  const problem = recordProblem(record, (h) => sentCounts.get(h) ?? held.get(h));
  if (problem) throw blockFormRefused(problem);
  return counts;
}

/** A sent block's symbol count, once it is known to be a block the server could have built. */
function symbolsOf(hashBytes: Buffer, data: Buffer): number {
  const hash = hashBytes.toString('hex');
  if (blockHash(data) !== hash) throw blockFormRefused(`block ${hash} does not match its hash`);
  let block: Block;
  try {
    block = decodeBlock(data);
  } catch (error) {
    throw blockFormRefused(`block ${hash} cannot be read: ${(error as Error).message}`);
  }
  if (typeof block.section !== 'string' || block.symbols.length === 0)
    throw blockFormRefused(`block ${hash} has no section or no symbols`);
  block.symbols.forEach((s, i) => {
    const faults = blockSymbolFaults(s, `block ${hash} symbol ${i}`);
    if (faults.length > 0) throw blockFormRefused(faults.join('; '));
  });
  // Only the canonical bytes: a block's hash then names one content whichever form it came in.
  if (!encodeBlock(block).equals(data))
    throw blockFormRefused(`block ${hash} is not in canonical form`);
  return block.symbols.length;
}
