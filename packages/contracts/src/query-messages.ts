import type { DependencyCheck } from './schemas/health.js';

/**
 * Message patterns the gateway sends to the query service over @nestjs/microservices (TCP).
 * Both sides import these names, so a rename cannot leave one side behind.
 */
export const QueryPatterns = {
  ping: 'query.ping',
  heads: 'query.heads',
  commits: 'query.commits',
  report: 'query.report',
  tree: 'query.tree',
  symbols: 'query.symbols',
  reportExport: 'query.report-export',
  diff: 'query.diff',
  diffExport: 'query.diff-export',
  regionSeries: 'query.series.regions',
  sectionSeries: 'query.series.sections',
  symbolHistory: 'query.history.symbol',
  fileHistory: 'query.history.file',
  growers: 'query.growers',
} as const;

/**
 * A read's answer as the query service sends it: its data serialised once, there, so that the
 * gateway puts it in the envelope as text (`successJson`) instead of parsing and serialising it
 * again. A 40k-symbol report is 9 MiB of JSON and 40,000 objects; `T` is the data's type.
 */
export interface Serialized<T> {
  json: string;
  /** Never set: ties the reply to the type of its data. */
  readonly data?: T;
}

export function serialized<T>(data: T): Serialized<T> {
  return { json: JSON.stringify(data) };
}

/** Reply to `query.ping`: the query service's own view of the stores it reads. */
export interface QueryPingReply {
  service: 'query';
  time: string;
  checks: {
    postgres: DependencyCheck;
    clickhouse: DependencyCheck;
  };
}
