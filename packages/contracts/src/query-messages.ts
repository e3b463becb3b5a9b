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
 * Packet metadata of a caller that takes read answers as text (`Serialized`). A caller without
 * it (a gateway of an earlier release, during a rolling upgrade) gets the data itself.
 */
export const ANSWERS_AS_TEXT = { answers: 'text' } as const;

/**
 * A read's answer serialised once, in the query service, so that the gateway puts it in the
 * envelope as text (`successJson`) instead of parsing and serialising it again: a 40k-symbol
 * report is 9 MiB of JSON and 40,000 objects. `T` is the type of the data.
 */
export interface Serialized<T> {
  serialized: true;
  json: string;
  /** Never set: ties the reply to the type of its data. */
  readonly data?: T;
}

export function serialized<T>(data: T): Serialized<T> {
  return { serialized: true, json: JSON.stringify(data) };
}

/**
 * Whether a reply is `Serialized` or the data itself (from a query service of an earlier
 * release): no read's data has `serialized: true`.
 */
export function isSerialized<T>(reply: Serialized<T> | T): reply is Serialized<T> {
  const fields = reply as { serialized?: unknown; json?: unknown } | null;
  return (
    typeof fields === 'object' &&
    fields !== null &&
    fields.serialized === true &&
    typeof fields.json === 'string'
  );
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
