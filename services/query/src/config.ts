import { IsInt, IsString, Max, Min } from 'class-validator';
import { CommonConfig, IsHttpUrl, IsPostgresUrl, IsSecret } from '@memtrail/config';

/** Every variable the query service reads; validated at start-up (see README "Configuration"). */
export class QueryConfig extends CommonConfig {
  /** Interface the TCP transport binds; the gateway reaches it at QUERY_HOST:QUERY_PORT. */
  @IsString()
  QUERY_BIND_HOST: string = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  QUERY_PORT: number = 5001;

  /**
   * Shared with the gateway, which signs every message with it; unsigned or wrongly signed
   * messages are refused, so reaching the port is not enough to read any tenant's data.
   */
  @IsSecret()
  QUERY_SECRET!: string;

  @IsPostgresUrl()
  DATABASE_URL!: string;

  @IsHttpUrl()
  CLICKHOUSE_URL!: string;

  @IsString()
  CLICKHOUSE_DATABASE: string = 'memtrail';

  /** Memory for the symbols of recently read reports (paged symbol tables); 0 keeps none. */
  @IsInt()
  @Min(0)
  @Max(16384)
  QUERY_SYMBOL_CACHE_MB: number = 256;

  /**
   * Memory for symbol blocks read from ClickHouse. Blocks never change and builds of a target
   * share nearly all of them: a 40k-symbol target's blocks take about 15 MB, so the default
   * keeps the working set of a dozen large targets.
   */
  @IsInt()
  @Min(16)
  QUERY_BLOCK_CACHE_MB: number = 256;

  /** Memory for decoded report versions (records and layouts, about 150 KB at 40k symbols). */
  @IsInt()
  @Min(4)
  QUERY_VERSION_CACHE_MB: number = 64;
}
