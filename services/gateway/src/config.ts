import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CommonConfig, IsHttpUrl, IsPostgresUrl, IsRedisUrl } from '@memtrail/config';

/** Every variable the gateway reads; validated at start-up (see README "Configuration"). */
export class GatewayConfig extends CommonConfig {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 5000;

  @IsString()
  HOST: string = '0.0.0.0';

  @IsPostgresUrl()
  DATABASE_URL!: string;

  @IsRedisUrl()
  REDIS_URL!: string;

  @IsString()
  QUEUE_PREFIX: string = 'memtrail';

  @IsString()
  QUERY_HOST: string = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  QUERY_PORT: number = 5001;

  @IsInt()
  @Min(100)
  QUERY_TIMEOUT_MS: number = 10_000;

  @IsIn(['cloud', 'onprem'])
  DEPLOYMENT_MODE: 'cloud' | 'onprem' = 'cloud';

  @IsHttpUrl()
  CORE_URL: string = 'http://localhost:5000';

  /** The built web app; unset means web/dist next to the services in this repository. */
  @IsOptional()
  @IsString()
  WEB_DIST_DIR?: string;
}
