import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds; from a cache hit on a small read up to a large diff or a slow upload. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds; one step of accepting an upload, from a millisecond to a slow client's body. */
const UPLOAD_PHASE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Seconds; an ingest job runs from milliseconds (identical report) to minutes (huge ELF). */
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * Every metric a Memtrail process exports, in one registry per process. A service only feeds
 * the ones that concern it; an unused labelled metric exports no series. Names follow the
 * Prometheus conventions (`_seconds`, `_total`) and carry the `memtrail_` prefix; the
 * dashboard in deploy/grafana reads them by these names.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  /** HTTP requests by route pattern (never the raw path: ids would explode the series). */
  readonly httpDuration = new Histogram({
    name: 'memtrail_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  /** Gateway → query calls as the query service sees them. */
  readonly rpcDuration = new Histogram({
    name: 'memtrail_rpc_duration_seconds',
    help: 'Message handling latency of the query service by pattern and outcome',
    labelNames: ['pattern', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  /**
   * Where an upload's acknowledgement spends its time, step by step (the gateway's upload
   * path): reading the body, waiting for a decode thread, decoding on it, storing in Postgres,
   * then enqueueing and answering.
   */
  readonly uploadPhaseDuration = new Histogram({
    name: 'memtrail_upload_phase_seconds',
    help: 'Time an upload spent in each step before its acknowledgement: body, decode_wait, decode, store, answer (a step a refused upload did not finish is not timed)',
    labelNames: ['phase'] as const,
    buckets: UPLOAD_PHASE_BUCKETS,
    registers: [this.registry],
  });

  readonly jobDuration = new Histogram({
    name: 'memtrail_job_duration_seconds',
    help: 'Time a worker spent on one job attempt, by queue and outcome',
    labelNames: ['queue', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  readonly clickhouseRows = new Counter({
    name: 'memtrail_clickhouse_rows_inserted_total',
    help: 'Rows inserted into ClickHouse by table',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });

  readonly clickhouseInsertDuration = new Histogram({
    name: 'memtrail_clickhouse_insert_duration_seconds',
    help: 'Latency of one ClickHouse insert (one chunk of rows) by table',
    labelNames: ['table'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  /** Symbol rows stored in Postgres that the worker has not copied to ClickHouse yet. */
  readonly copyWaitingRows = new Gauge({
    name: 'memtrail_clickhouse_copy_waiting_rows',
    help: 'Symbol rows waiting in Postgres to be copied to ClickHouse, as the copying worker last saw',
    registers: [this.registry],
  });

  /** Pending reports the worker's sweeper enqueued because no job was queued for them. */
  readonly reportsRequeued = new Counter({
    name: 'memtrail_reports_requeued_total',
    help: 'Pending reports enqueued by the sweeper: their job was lost, or they were stored before report versions',
    registers: [this.registry],
  });

  /** Failures worth alerting on, by where they happened (http_5xx, rpc, job, ...). */
  readonly errors = new Counter({
    name: 'memtrail_errors_total',
    help: 'Errors by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    // Process CPU, memory, event-loop lag and GC: the first things to look at under load.
    collectDefaultMetrics({ register: this.registry, prefix: 'memtrail_' });
  }

  /**
   * Times `work` into `histogram` with `outcome="ok"`; a failure is rethrown and labelled by
   * `outcomeOf` (by default `error`), so a job that only waits need not look like a failure.
   */
  async time<T, L extends string>(
    histogram: Histogram<L | 'outcome'>,
    labels: Partial<Record<L, string>>,
    work: () => Promise<T>,
    outcomeOf: (error: unknown) => string = () => 'error',
  ): Promise<T> {
    const stop = histogram.startTimer(labels as Partial<Record<L | 'outcome', string>>);
    try {
      const result = await work();
      stop({ outcome: 'ok' } as Partial<Record<L | 'outcome', string>>);
      return result;
    } catch (error) {
      stop({ outcome: outcomeOf(error) } as Partial<Record<L | 'outcome', string>>);
      throw error;
    }
  }
}
