import { setImmediate as nextTurn } from 'node:timers/promises';
import { BadRequestException } from '@nestjs/common';
import {
  blockHash,
  decodeBlock,
  encodeBlock,
  recordProblem,
  type Block,
  type VersionRecord,
} from '@memtrail/symbol-blocks';
import { blockSymbolFaults } from './validate-upload.js';

export const blockFormRefused = (problem: string) =>
  new BadRequestException(`Upload in block form refused: ${problem}`);

/** Blocks checked between two turns of the event loop (a target's first upload sends all). */
const BLOCKS_PER_TURN = 64;

export interface SentBlock {
  hash: Buffer;
  data: Buffer;
}

/** A block the target did not hold, checked: its bytes and symbol count. */
export interface CheckedBlock extends SentBlock {
  symbols: number;
}

/**
 * The blocks a block-form upload places that its target does not hold yet, each checked as the
 * server would have built it: its bytes hash to its name, are a block in canonical form, and
 * hold only symbols a JSON upload could hold. Then the record is checked against the blocks
 * (recordProblem). Throws the 400 the client gets; blocks sent but held or unused are ignored.
 */
export async function checkSentBlocks(
  record: VersionRecord,
  sent: readonly SentBlock[],
  held: ReadonlyMap<string, number>,
): Promise<CheckedBlock[]> {
  const byHash = new Map(sent.map((b) => [b.hash.toString('hex'), b]));
  const needed = [...new Set(record.entries.map((e) => e.hash))].filter((h) => !held.has(h));
  const checked = new Map<string, CheckedBlock>();
  for (let i = 0; i < needed.length; i++) {
    if (i > 0 && i % BLOCKS_PER_TURN === 0) await nextTurn();
    const hash = needed[i]!;
    const block = byHash.get(hash);
    if (!block) throw blockFormRefused(`block ${hash} was neither sent nor stored before`);
    checked.set(hash, { ...block, symbols: symbolsOf(hash, block.data) });
  }
  const problem = recordProblem(record, (h) => held.get(h) ?? checked.get(h)?.symbols);
  if (problem) throw blockFormRefused(problem);
  return [...checked.values()];
}

/** A sent block's symbol count, once it is known to be a block the server could have built. */
function symbolsOf(hash: string, data: Buffer): number {
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
