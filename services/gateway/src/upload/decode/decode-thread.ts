import { performance } from 'node:perf_hooks';
import { HttpException } from '@nestjs/common';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { decodedBuffers, decodeUpload } from './decode-upload.js';
import { transferable, type DecodeReply, type DecodeTask } from './decode-pool.js';

/** A decode thread of DecodePool (piscina calls it once per upload). */
export default async function decode({ raw, options }: DecodeTask): Promise<unknown> {
  const start = performance.now();
  let reply: DecodeReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const result = await decodeUpload(raw, options);
    reply = { result, threadMs: performance.now() - start };
    transfer = decodedBuffers(result).flatMap(transferable);
  } catch (error) {
    reply =
      error instanceof HttpException
        ? { rejected: { status: error.getStatus(), message: error.message } }
        : { failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  // Header, record and blocks (hundreds of kilobytes) are moved back, not copied.
  return move({ [transferableSymbol]: transfer, [valueSymbol]: reply });
}
