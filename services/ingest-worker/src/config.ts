import { IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { CLICKHOUSE_TOPOLOGIES, type ClickHouseTopology } from '@memtrail/clickhouse';
import { CommonConfig, IsHttpUrl, IsPostgresUrl, IsRedisUrl } from '@memtrail/config';

/** Every variable the ingest worker reads; validated at start-up (see README "Configuration"). */
export class WorkerConfig extends CommonConfig {
  @IsPostgresUrl()
  DATABASE_URL!: string;

  @IsRedisUrl()
  REDIS_URL!: string;

  @IsString()
  QUEUE_PREFIX: string = 'memtrail';

  @IsHttpUrl()
  CLICKHOUSE_URL!: string;

  @IsString()
  CLICKHOUSE_DATABASE: string = 'memtrail';

  /** `cluster` when the tables are Replicated + Distributed, as the migrator laid them out. */
  @IsIn(CLICKHOUSE_TOPOLOGIES)
  CLICKHOUSE_TOPOLOGY: ClickHouseTopology = 'single';

  /** Jobs one worker process runs at once; scale out with more processes beyond that. */
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_CONCURRENCY: number = 8;

  /**
   * Symbol blocks reach ClickHouse in batches: once this many symbol rows wait, or the oldest
   * block has waited WORKER_COPY_AGE_MS. Reads take waiting blocks from Postgres meanwhile.
   */
  @IsInt()
  @Min(1)
  WORKER_COPY_ROWS: number = 20_000;

  @IsInt()
  @Min(0)
  WORKER_COPY_AGE_MS: number = 60_000;

  /** How often a worker looks whether a batch of blocks is due; 0 turns copying off. */
  @IsInt()
  @Min(0)
  WORKER_COPY_INTERVAL_MS: number = 1000;

  /** How long a job's lock lasts: a worker killed mid-job has its job rerun after this. */
  @IsInt()
  @Min(1000)
  WORKER_LOCK_MS: number = 30_000;

  /** How long the worker pauses its jobs while Postgres is unreachable (ClickHouse is not needed to ingest). */
  @IsInt()
  @Min(100)
  WORKER_OUTAGE_PAUSE_MS: number = 5000;

  /** How long an identical build's job waits before looking for its parent's record again. */
  @IsInt()
  @Min(100)
  WORKER_PARENT_WAIT_MS: number = 5000;

  /** How often the sweeper looks for reports whose job was lost; 0 turns it off. */
  @IsInt()
  @Min(0)
  SWEEP_INTERVAL_MS: number = 30_000;

  /** A report still pending this long after its upload is enqueued again. */
  @IsInt()
  @Min(1000)
  SWEEP_AFTER_MS: number = 120_000;
}
