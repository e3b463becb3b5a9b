import { loadConfig } from '@memtrail/config';
import { GatewayConfig } from '../../services/gateway/src/config.js';
import { WorkerConfig } from '../../services/ingest-worker/src/config.js';
import { QueryConfig } from '../../services/query/src/config.js';

/** Each service's real config schema: a deployment's environment must pass it. */
export const SERVICE_CONFIGS = {
  gateway: GatewayConfig,
  query: QueryConfig,
  'ingest-worker': WorkerConfig,
} as const;

export type ServiceName = keyof typeof SERVICE_CONFIGS;

/** Validates `env` the way the service does at start-up; throws naming each bad variable. */
export function checkServiceEnv(service: ServiceName, env: Record<string, string>) {
  return loadConfig(SERVICE_CONFIGS[service] as new () => object, env) as Record<string, unknown>;
}
