import { parentPort } from 'node:worker_threads';
import { HttpException } from '@nestjs/common';
import { decodeUpload, type DecodeOptions, type RawUpload } from './decode-upload.js';
import { transferable, type DecodeReply } from './decode-pool.js';

// A decode thread of DecodePool: one upload at a time, answered by id.
parentPort!.on(
  'message',
  async ({ id, raw, options }: { id: number; raw: RawUpload; options: DecodeOptions }) => {
    let reply: DecodeReply;
    let transfer: ArrayBuffer[] = [];
    try {
      const result = await decodeUpload(raw, options);
      reply = { id, result };
      transfer = transferable(result.gzip);
    } catch (error) {
      reply =
        error instanceof HttpException
          ? { id, rejected: { status: error.getStatus(), message: error.message } }
          : { id, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    parentPort!.postMessage(reply, transfer);
  },
);
