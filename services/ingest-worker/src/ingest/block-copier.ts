import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ServiceMetrics } from '@memtrail/metrics';
import { WorkerConfig } from '../config.js';
import { BlockWriter } from './block-writer.js';
import { StoredBlocks } from './stored-blocks.js';

/** Blocks per batch: about 24 symbols each, so a batch of symbol rows stays near 50k. */
const BATCH_BLOCKS = 2000;

/**
 * Copies symbol blocks from Postgres to ClickHouse in batches. Reports are readable as soon as
 * they are ingested (reads take blocks ClickHouse does not have yet from Postgres), so blocks can
 * wait until enough rows gather (WORKER_COPY_ROWS) or the oldest has waited WORKER_COPY_AGE_MS:
 * ClickHouse then writes one part for many commits instead of one per commit, whose fixed cost
 * was most of its work per report. One worker copies at a time (a Postgres session lock).
 */
@Injectable()
export class BlockCopier implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BlockCopier.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    @Inject(StoredBlocks) private readonly blocks: StoredBlocks,
    @Inject(BlockWriter) private readonly writer: BlockWriter,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(WorkerConfig)
    private readonly config: Pick<
      WorkerConfig,
      'WORKER_COPY_INTERVAL_MS' | 'WORKER_COPY_ROWS' | 'WORKER_COPY_AGE_MS'
    >,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.WORKER_COPY_INTERVAL_MS === 0) return;
    this.timer = setInterval(() => void this.tick(), this.config.WORKER_COPY_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** The timer's pass: copies while a batch is due; errors are logged and retried next pass. */
  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = this.copyDue();
    try {
      await this.running;
    } catch (error) {
      this.metrics.errors.inc({ kind: 'block_copy' });
      this.logger.warn(
        `copying symbol blocks to ClickHouse failed, retrying: ${(error as Error).message}`,
      );
    } finally {
      this.running = undefined;
    }
  }

  /** Copies batches while enough rows wait or the oldest has waited long enough. */
  async copyDue(): Promise<number> {
    let copied = 0;
    for (;;) {
      const waiting = await this.blocks.waiting();
      this.metrics.copyWaitingRows.set(waiting.rows);
      const due =
        waiting.rows > 0 &&
        (waiting.rows >= this.config.WORKER_COPY_ROWS ||
          waiting.oldestMs >= this.config.WORKER_COPY_AGE_MS);
      if (!due) return copied;
      const batch = await this.copyOnce();
      if (batch === undefined || batch === 0) return copied;
      copied += batch;
    }
  }

  /**
   * One batch, the oldest blocks first: blocks tried before that ClickHouse already holds are
   * only marked; the others are written, then marked. Returns the blocks handled, or undefined
   * when another worker is copying.
   */
  async copyOnce(): Promise<number | undefined> {
    // Claiming counts an attempt: during an outage, fail before claiming anything.
    await this.writer.reachable();
    return this.blocks.exclusively(async (db) => {
      const batch = await this.blocks.claim(db, BATCH_BLOCKS);
      if (batch.length === 0) return 0;
      const present = await this.writer.present(batch.filter((b) => b.writeAttempts > 1));
      const missing = batch.filter((b) => !present.has(`${b.targetId}/${b.hash}`));
      const { rows, refused } = await this.writer.write(missing);
      for (const { block, reason } of refused) {
        this.metrics.errors.inc({ kind: 'block_copy' });
        this.logger.error(`symbol block left in Postgres: ${reason}`);
        await this.blocks.markRefused(db, block, reason);
      }
      const refusedSet = new Set(refused.map(({ block }) => block));
      await this.blocks.markCopied(
        db,
        batch.filter((b) => !refusedSet.has(b)),
      );
      this.logger.log(
        `copied ${batch.length - refused.length} symbol blocks to ClickHouse (${rows} rows)`,
      );
      return batch.length;
    });
  }
}
