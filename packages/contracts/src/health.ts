/** One dependency's state as the gateway's `/readyz` reports it. */
export interface DependencyCheck {
  ok: boolean;
  /** Round-trip time of the check in milliseconds. */
  latency_ms: number;
  error?: string;
}

export const READINESS_DEPENDENCIES = ['postgres', 'redis', 'clickhouse', 'query'] as const;
export type ReadinessDependency = (typeof READINESS_DEPENDENCIES)[number];

/** Body of `GET /readyz`: 200 with status 'ok' when every dependency is up, 503 otherwise. */
export interface ReadinessReport {
  status: 'ok' | 'error';
  checks: Record<ReadinessDependency, DependencyCheck>;
}

/** Body of `GET /healthz`: the process is alive and serving. */
export interface LivenessReport {
  status: 'ok';
  service: string;
  uptime_s: number;
}

/** Runs one dependency probe, timing it and turning a failure into a reported error. */
export async function measureCheck(probe: () => Promise<unknown>): Promise<DependencyCheck> {
  const start = performance.now();
  try {
    await probe();
    return { ok: true, latency_ms: Math.round(performance.now() - start) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, latency_ms: Math.round(performance.now() - start), error: message };
  }
}
