import { HttpException } from '@nestjs/common';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { decodeUpload, splitBuffers, splitUpload } from './decode-upload.js';
import { transferable, type DecodeReply, type DecodeTask } from './decode-pool.js';

/**
 * A decode thread of DecodePool (piscina calls it once per upload): posts the decoded upload on
 * the task's port, then splits it and ends with the split. A split that throws rejects the task.
 */
export default function decode({ raw, options, port }: DecodeTask): unknown {
  let parsed;
  try {
    parsed = decodeUpload(raw, options);
  } catch (error) {
    const reply: DecodeReply =
      error instanceof HttpException
        ? { rejected: { status: error.getStatus(), message: error.message } }
        : { failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    return reply;
  }
  // The payload (hundreds of kilobytes) is moved, not copied; so are the split's buffers.
  port.postMessage(parsed.decoded, transferable(parsed.decoded.payload));
  const split = splitUpload(parsed.document, parsed.decoded.upload.kind);
  const reply: DecodeReply = { split };
  return move({
    [transferableSymbol]: splitBuffers(split).flatMap(transferable),
    [valueSymbol]: reply,
  });
}
