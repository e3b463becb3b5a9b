import { z } from 'zod';
import { isoTime } from './common.js';

/** One dependency's state as the gateway's `/readyz` reports it. */
export const DependencyCheck = z
  .object({
    ok: z.boolean(),
    latency_ms: z.number().describe('Round-trip time of the check in milliseconds'),
    error: z.string().optional(),
  })
  .meta({ id: 'DependencyCheck' });
export type DependencyCheck = z.infer<typeof DependencyCheck>;

/** What the gateway's readiness depends on. */
export const ReadinessDependency = z.enum(['postgres', 'redis', 'clickhouse', 'query']);
export type ReadinessDependency = z.infer<typeof ReadinessDependency>;

/** Body of `GET /readyz`: 200 with status 'ok' when every dependency is up, 503 otherwise. */
export const ReadinessReport = z
  .object({
    status: z.enum(['ok', 'error']),
    checks: z.object(
      Object.fromEntries(
        ReadinessDependency.options.map((name) => [name, DependencyCheck]),
      ) as Record<ReadinessDependency, typeof DependencyCheck>,
    ),
  })
  .meta({ id: 'ReadinessReport' });
export type ReadinessReport = z.infer<typeof ReadinessReport>;

/** Body of `GET /healthz`: the process is alive and serving. */
export const LivenessReport = z
  .object({ status: z.literal('ok'), service: z.string(), uptime_s: z.int() })
  .meta({ id: 'LivenessReport' });
export type LivenessReport = z.infer<typeof LivenessReport>;

/** An ingestion job that failed for good (`GET /api/admin/ingest/failed`). */
export const FailedIngestion = z
  .object({
    job_id: z.string(),
    report_id: z.string(),
    version: z.int().nullable(),
    reason: z.string(),
    attempts: z.int(),
    failed_at: isoTime.nullable(),
  })
  .meta({ id: 'FailedIngestion' });
export type FailedIngestion = z.infer<typeof FailedIngestion>;
