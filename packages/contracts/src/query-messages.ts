import type { DependencyCheck } from './health.js';

/**
 * Message patterns the gateway sends to the query service over @nestjs/microservices (TCP).
 * Both sides import these names, so a rename cannot leave one side behind.
 */
export const QueryPatterns = {
  ping: 'query.ping',
} as const;

/** Reply to `query.ping`: the query service's own view of the stores it reads. */
export interface QueryPingReply {
  service: 'query';
  time: string;
  checks: {
    postgres: DependencyCheck;
    clickhouse: DependencyCheck;
  };
}
