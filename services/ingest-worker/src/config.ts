import { IsInt, IsString, Max, Min } from 'class-validator';
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

  /** Jobs one worker process runs at once; scale out with more processes beyond that. */
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_CONCURRENCY: number = 2;
}
