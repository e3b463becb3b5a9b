import { existsSync } from 'node:fs';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  BadRequestException,
  HttpException,
  Logger,
  PayloadTooLargeException,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Piscina } from 'piscina';
import { ServiceUnavailableException } from '../../http/retry-later.js';
import { BUSY_RETRY_AFTER_S } from '../upload-admission.js';
import {
  decodeUpload,
  splitUpload,
  type DecodedUpload,
  type DecodeOptions,
  type RawUpload,
  type SplitUpload,
} from './decode-upload.js';

/**
 * What a decode thread's task ends with: the split upload, or why decoding refused it (its 4xx
 * travels as data, since errors lose their class). The decoded upload itself is posted on the
 * task's port as soon as it is ready, before the split.
 */
export type DecodeReply =
  { split: SplitUpload } | { rejected: { status: number; message: string } } | { failed: string };

export interface DecodeTask {
  raw: RawUpload;
  options: DecodeOptions;
  /** Where the thread posts the DecodedUpload, before it splits the upload. */
  port: MessagePort;
}

/** A decoded upload, and its split, which finishes later on the same thread. */
export interface AcceptedUpload {
  decoded: DecodedUpload;
  split: Promise<SplitUpload>;
}

/**
 * A buffer that owns its whole memory is moved to the other thread instead of copied (the
 * body is hundreds of kilobytes); a view into shared or pooled memory must be copied.
 */
export function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength
    ? [buffer]
    : [];
}

/** Rebuilds a thread's 4xx as the same exception class, so clients see the same error type. */
function refusal(reply: Exclude<DecodeReply, { split: SplitUpload }>): Error {
  if ('failed' in reply)
    return new Error(`decoding the upload failed on its thread: ${reply.failed}`);
  const { status, message } = reply.rejected;
  if (status === 400) return new BadRequestException(message);
  if (status === 413) return new PayloadTooLargeException(message);
  return new HttpException(message, status);
}

/** Decodes on the event loop, and splits once the caller has acknowledged the upload. */
function decodeHere(raw: RawUpload, options: DecodeOptions): AcceptedUpload {
  const { decoded, document } = decodeUpload(raw, options);
  const split = new Promise<SplitUpload>((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(splitUpload(document, decoded.upload.kind));
      } catch (error) {
        reject(error as Error);
      }
    }),
  );
  return { decoded, split };
}

/**
 * Decodes uploads on worker threads (piscina). Parsing and checking a 10k-symbol report takes
 * tens of milliseconds of CPU; on the event loop every concurrent upload and read would queue
 * behind it, and one gateway process would use a single core. A thread first sends back the
 * checked metadata, totals and payload, which is all the acknowledgement needs, then goes on to
 * split the parsed upload into its stored form (header, record, packed blocks), so the
 * acknowledgement does not wait for that; the parsed symbols never leave the thread.
 * At most `maxQueue` uploads wait for a thread; beyond that the caller gets a 503 (admission
 * normally refuses them earlier, see UploadAdmission).
 *
 * With no threads — or when running from TypeScript sources, where no compiled thread script
 * exists — uploads are decoded on the event loop by the same function.
 */
export class DecodePool implements OnApplicationShutdown {
  private readonly logger = new Logger(DecodePool.name);
  private readonly pool?: Piscina<DecodeTask, DecodeReply>;

  /** `script` is the compiled thread entry; tests running from sources point at the build. */
  constructor(
    size: number,
    private readonly options: DecodeOptions,
    {
      maxQueue = Infinity,
      script = fileURLToPath(new URL('./decode-thread.js', import.meta.url)),
    } = {},
  ) {
    if (size === 0) return;
    if (!existsSync(script)) {
      this.logger.warn(`decoding uploads on the event loop: no compiled ${script}`);
      return;
    }
    this.pool = new Piscina({
      filename: pathToFileURL(script).href,
      minThreads: size,
      maxThreads: size,
      idleTimeout: Infinity,
      maxQueue,
    });
  }

  get size(): number {
    return this.pool?.threads.length ?? 0;
  }

  /**
   * Decodes on a free thread; `raw.bytes` may be moved there, so do not read it afterwards.
   * Resolves once the upload is decoded; its split follows.
   */
  async decode(raw: RawUpload): Promise<AcceptedUpload> {
    if (!this.pool) return decodeHere(raw, this.options);
    const { port1, port2 } = new MessageChannel();
    try {
      const task: Promise<DecodeReply> = this.pool.run(
        { raw, options: this.options, port: port2 },
        { transferList: [...transferable(raw.bytes), port2] },
      );
      const decoded = await new Promise<DecodedUpload>((resolve, reject) => {
        port1.once('message', resolve);
        task.then((reply) => {
          if (!('split' in reply)) reject(refusal(reply));
        }, reject);
      });
      return { decoded, split: task.then((reply) => (reply as { split: SplitUpload }).split) };
    } catch (error) {
      if (error instanceof HttpException) throw error;
      const message = (error as Error).message;
      if (message === 'Task queue is at limit') {
        throw new ServiceUnavailableException(
          BUSY_RETRY_AFTER_S,
          `The server is busy decoding other uploads; retry after ${BUSY_RETRY_AFTER_S} s`,
        );
      }
      // A crashed thread fails only its own upload; piscina starts a fresh one.
      throw new Error(`decoding the upload failed on its thread: ${message}`);
    } finally {
      port1.close();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }
}
