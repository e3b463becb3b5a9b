import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
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
import { checkSentBlocks, type CheckedBlocks, type SentBlocksCheck } from '../sent-blocks.js';
import {
  decodeUpload,
  type DecodedUpload,
  type DecodeOptions,
  type RawUpload,
} from './decode-upload.js';

/**
 * What a decode thread answers: its 4xx travels as data, since errors lose their class. A
 * result comes with the time the thread spent on it.
 */
export type ThreadReply<T> =
  | { result: T; threadMs: number }
  | { rejected: { status: number; message: string } }
  | { failed: string };

/** Blocks checked without a thread: at most about 2 ms of the event loop. */
const INLINE_CHECK_BLOCKS = 64;

/** Seconds an upload waited for a thread (and for its result to come back), and was decoded. */
export type DecodeTimings = (phase: 'decode_wait' | 'decode', seconds: number) => void;

export interface DecodeTask {
  raw: RawUpload;
  options: DecodeOptions;
}

/** The thread's functions (decode-thread.ts): each takes its task and answers a ThreadReply. */
type ThreadTask = { name: 'default'; task: DecodeTask } | { name: 'check'; task: SentBlocksCheck };

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
function rejection(status: number, message: string): HttpException {
  if (status === 400) return new BadRequestException(message);
  if (status === 413) return new PayloadTooLargeException(message);
  return new HttpException(message, status);
}

/**
 * Decodes uploads on worker threads (piscina). Parsing and checking a 10k-symbol report takes
 * tens of milliseconds of CPU; on the event loop every concurrent upload and read would queue
 * behind it, and one gateway process would use a single core. The threads send back the
 * checked metadata and totals and the stored form (header, record, packed blocks), never the
 * parsed symbols.
 * At most `maxQueue` uploads wait for a thread; beyond that the caller gets a 503 (admission
 * normally refuses them earlier, see UploadAdmission).
 *
 * With no threads — or when running from TypeScript sources, where no compiled thread script
 * exists — uploads are decoded on the event loop by the same function.
 */
export class DecodePool implements OnApplicationShutdown {
  private readonly logger = new Logger(DecodePool.name);
  private readonly pool?: Piscina<DecodeTask | SentBlocksCheck, ThreadReply<unknown>>;
  private readonly observe: DecodeTimings;

  /** `script` is the compiled thread entry; tests running from sources point at the build. */
  constructor(
    size: number,
    private readonly options: DecodeOptions,
    {
      maxQueue = Infinity,
      script = fileURLToPath(new URL('./decode-thread.js', import.meta.url)),
      observe = () => {},
    }: { maxQueue?: number; script?: string; observe?: DecodeTimings } = {},
  ) {
    this.observe = observe;
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

  /** Decodes on a free thread; `raw.chunks` may be moved there, so do not read it afterwards. */
  async decode(raw: RawUpload): Promise<DecodedUpload> {
    const start = performance.now();
    if (!this.pool) {
      const decoded = await decodeUpload(raw, this.options);
      this.observe('decode', (performance.now() - start) / 1000);
      return decoded;
    }
    const { result, threadMs } = await this.run<DecodedUpload>(
      { name: 'default', task: { raw, options: this.options } },
      raw.chunks.flatMap(transferable),
    );
    this.observe('decode', threadMs / 1000);
    this.observe('decode_wait', Math.max(0, performance.now() - start - threadMs) / 1000);
    return result;
  }

  /**
   * Checks the blocks of a block-form upload that its target lacks (checkSentBlocks): a
   * typical commit's few on the event loop (about 35 µs each, less than the hand-over to a
   * thread), a target's first upload, which sends thousands, on a thread.
   */
  async check(task: SentBlocksCheck): Promise<CheckedBlocks> {
    if (!this.pool || task.sent.ends.length <= INLINE_CHECK_BLOCKS) return checkSentBlocks(task);
    const transfer = transferable(task.sent.data);
    return (await this.run<CheckedBlocks>({ name: 'check', task }, transfer)).result;
  }

  private async run<T>(
    { name, task }: ThreadTask,
    transferList: ArrayBuffer[],
  ): Promise<{ result: T; threadMs: number }> {
    let reply: ThreadReply<unknown>;
    try {
      reply = await this.pool!.run(task, { name, transferList });
    } catch (error) {
      const message = (error as Error).message;
      if (message === 'Task queue is at limit') {
        throw new ServiceUnavailableException(
          BUSY_RETRY_AFTER_S,
          `The server is busy decoding other uploads; retry after ${BUSY_RETRY_AFTER_S} s`,
        );
      }
      // A crashed thread fails only its own upload; piscina starts a fresh one.
      throw new Error(`decoding the upload failed on its thread: ${message}`);
    }
    if ('rejected' in reply) throw rejection(reply.rejected.status, reply.rejected.message);
    if ('failed' in reply)
      throw new Error(`decoding the upload failed on its thread: ${reply.failed}`);
    return reply as { result: T; threadMs: number };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }
}
