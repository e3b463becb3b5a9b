import { IsIn, IsInt, IsString, Max, Min } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Variables every service reads; each service's schema extends this class. */
export class CommonConfig {
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /**
   * Port of the side HTTP server with /metrics, /healthz and /readyz; 0 turns it off. The
   * container images set 9464 (Prometheus' customary exporter port).
   */
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT: number = 0;

  @IsString()
  METRICS_HOST: string = '0.0.0.0';

  /**
   * Seconds a shutdown (SIGTERM, SIGINT) may take before the process exits anyway: below
   * Kubernetes' default grace period of 30 s, so the service logs why it was cut short.
   */
  @IsInt()
  @Min(1)
  SHUTDOWN_TIMEOUT_S: number = 25;
}
