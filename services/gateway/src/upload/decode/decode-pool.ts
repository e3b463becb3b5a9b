import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  BadRequestException,
  HttpException,
  Logger,
  PayloadTooLargeException,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  decodeUpload,
  type DecodedUpload,
  type DecodeOptions,
  type RawUpload,
} from './decode-upload.js';

export type DecodeReply =
  | { id: number; result: DecodedUpload }
  | { id: number; rejected: { status: number; message: string } }
  | { id: number; failed: string };

interface Task {
  id: number;
  raw: RawUpload;
  resolve(result: DecodedUpload): void;
  reject(error: unknown): void;
}

interface Thread {
  worker: Worker;
  task?: Task;
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
function rejection(status: number, message: string): HttpException {
  if (status === 400) return new BadRequestException(message);
  if (status === 413) return new PayloadTooLargeException(message);
  return new HttpException(message, status);
}

/**
 * Decodes uploads on worker threads. Parsing and checking a 10k-symbol report takes tens of
 * milliseconds of CPU; on the event loop every concurrent upload and read would queue behind
 * it, and one gateway process would use a single core. The threads send back only the checked
 * metadata and totals, never the parsed symbols (unless symbol changes are asked for).
 *
 * With no threads — or when running from TypeScript sources, where no compiled thread script
 * exists — uploads are decoded on the event loop by the same function.
 */
export class DecodePool implements OnApplicationShutdown {
  private readonly logger = new Logger(DecodePool.name);
  private readonly threads: Thread[] = [];
  private readonly waiting: Task[] = [];
  private nextId = 0;
  private closed = false;

  /** `script` is the compiled thread entry; tests running from sources point at the build. */
  constructor(
    size: number,
    private readonly options: DecodeOptions,
    private readonly script = fileURLToPath(new URL('./decode-thread.js', import.meta.url)),
  ) {
    if (size > 0 && !existsSync(this.script)) {
      this.logger.warn(`decoding uploads on the event loop: no compiled ${this.script}`);
      return;
    }
    for (let i = 0; i < size; i++) this.threads.push(this.spawn());
  }

  get size(): number {
    return this.threads.length;
  }

  /** Decodes on a free thread; `raw.bytes` may be moved there, so do not read it afterwards. */
  decode(raw: RawUpload): Promise<DecodedUpload> {
    if (this.threads.length === 0) return decodeUpload(raw, this.options);
    if (this.closed) return Promise.reject(new Error('DecodePool is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, raw, resolve, reject });
      this.dispatch();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.worker.terminate()));
  }

  private spawn(): Thread {
    const thread: Thread = { worker: new Worker(this.script) };
    // Idle threads must not keep a finished process alive.
    thread.worker.unref();
    thread.worker.on('message', (reply: DecodeReply) => this.settle(thread, reply));
    thread.worker.on('error', (error) => this.replace(thread, error));
    thread.worker.on('exit', (code) => {
      if (!this.closed) this.replace(thread, new Error(`decode thread exited with code ${code}`));
    });
    return thread;
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (thread.task) continue;
      const task = this.waiting.shift();
      if (!task) return;
      thread.task = task;
      thread.worker.postMessage(
        { id: task.id, raw: task.raw, options: this.options },
        transferable(task.raw.bytes),
      );
    }
  }

  private settle(thread: Thread, reply: DecodeReply): void {
    const task = thread.task;
    thread.task = undefined;
    if (task && task.id === reply.id) {
      if ('result' in reply) {
        // Structured cloning turns Buffers into plain Uint8Arrays; callers expect a Buffer.
        const { gzip } = reply.result;
        reply.result.gzip = Buffer.from(gzip.buffer, gzip.byteOffset, gzip.byteLength);
        task.resolve(reply.result);
      } else if ('rejected' in reply) {
        task.reject(rejection(reply.rejected.status, reply.rejected.message));
      } else {
        task.reject(new Error(`decoding the upload failed on its thread: ${reply.failed}`));
      }
    }
    this.dispatch();
  }

  /** A crashed thread fails only its own upload; a fresh one takes its place. */
  private replace(thread: Thread, error: Error): void {
    const index = this.threads.indexOf(thread);
    if (index === -1) return;
    this.logger.error(`decode thread failed, replacing it: ${error.message}`);
    thread.task?.reject(new Error(`decoding the upload failed on its thread: ${error.message}`));
    thread.worker.removeAllListeners();
    void thread.worker.terminate();
    this.threads[index] = this.spawn();
    this.dispatch();
  }
}
