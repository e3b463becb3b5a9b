import { performance } from 'node:perf_hooks';
import { HttpException } from '@nestjs/common';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { checkSentBlocks, type SentBlocksCheck } from '../sent-blocks.js';
import { decodedBuffers, decodeUpload } from './decode-upload.js';
import { transferable, type DecodeTask, type ThreadReply } from './decode-pool.js';

/** Runs one task, answering its result, its 4xx or its failure as data (ThreadReply). */
async function reply<T>(
  work: () => T | Promise<T>,
  buffers: (result: T) => Uint8Array[] = () => [],
): Promise<unknown> {
  const start = performance.now();
  let answer: ThreadReply<T>;
  let transfer: ArrayBuffer[] = [];
  try {
    const result = await work();
    answer = { result, threadMs: performance.now() - start };
    transfer = buffers(result).flatMap(transferable);
  } catch (error) {
    answer =
      error instanceof HttpException
        ? { rejected: { status: error.getStatus(), message: error.message } }
        : { failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  // Header, record and blocks (hundreds of kilobytes) are moved back, not copied.
  return move({ [transferableSymbol]: transfer, [valueSymbol]: answer });
}

/** A decode thread of DecodePool (piscina calls it once per upload). */
export default function decode({ raw, options }: DecodeTask): Promise<unknown> {
  return reply(() => decodeUpload(raw, options), decodedBuffers);
}

/** The check of a block-form upload's new blocks (DecodePool.check). */
export function check(task: SentBlocksCheck): Promise<unknown> {
  return reply(() => checkSentBlocks(task));
}
