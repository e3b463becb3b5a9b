import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerQueueMetrics, ServiceMetrics } from '@memtrail/metrics';
import { repoRoot } from './manifests.js';

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

describe('deploy/grafana/memtrail-dashboard.json', () => {
  const dashboard = JSON.parse(
    readFileSync(join(repoRoot, 'deploy', 'grafana', 'memtrail-dashboard.json'), 'utf8'),
  ) as Dashboard;

  it('queries only metrics the services export', async () => {
    const metrics = new ServiceMetrics('test');
    registerQueueMetrics(metrics, []);
    const exported = new Set(
      (await metrics.registry.getMetricsAsJSON()).flatMap((m) =>
        String(m.type) === 'histogram'
          ? [`${m.name}_bucket`, `${m.name}_count`, `${m.name}_sum`]
          : [m.name],
      ),
    );
    const used = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((t) => t.expr.match(/memtrail_[a-z0-9_]+/g) ?? []),
    );
    expect(used.length).toBeGreaterThan(10);
    for (const name of used)
      expect({ name, exported: exported.has(name) }).toEqual({ name, exported: true });
  });

  it('covers latency, upload steps, queue depth and age, jobs, ClickHouse inserts and errors', () => {
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join('\n');
    for (const metric of [
      'memtrail_http_request_duration_seconds_bucket',
      'memtrail_upload_phase_seconds_bucket',
      'memtrail_queue_jobs',
      'memtrail_queue_oldest_waiting_job_age_seconds',
      'memtrail_job_duration_seconds_bucket',
      'memtrail_clickhouse_rows_inserted_total',
      'memtrail_clickhouse_insert_duration_seconds_bucket',
      'memtrail_errors_total',
    ]) {
      expect(exprs).toContain(metric);
    }
  });
});
