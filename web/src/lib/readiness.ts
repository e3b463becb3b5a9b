// Client side of the gateway's readiness probe (GET /readyz). The same endpoint serves
// Kubernetes, so the browser reads it as-is rather than through the /api envelope.

export const DEPENDENCIES = ['postgres', 'redis', 'clickhouse', 'query'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];

export interface DependencyCheck {
  ok: boolean;
  error?: string;
}

export interface Readiness {
  status: 'ok' | 'error';
  checks: Partial<Record<Dependency, DependencyCheck>>;
}

export const READINESS_PATH = '/readyz';

/**
 * Fetches the readiness report. A not-ready gateway answers 503 with the same JSON body, and
 * that body is exactly what the user needs to see, so any status with a well-formed report is
 * returned; only an unreachable gateway or an unreadable body is an error.
 */
export async function fetchReadiness(path: string = READINESS_PATH): Promise<Readiness> {
  const response = await fetch(path, {
    headers: { accept: 'application/json' },
    cache: 'no-store',
  });
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error(`Readiness check failed: ${response.status} ${response.statusText}`);
  }
  if (!isReadiness(body)) {
    throw new Error(`Readiness check returned an unexpected body (HTTP ${response.status})`);
  }
  return body;
}

function isReadiness(value: unknown): value is Readiness {
  if (typeof value !== 'object' || value === null) return false;
  const { status, checks } = value as Record<string, unknown>;
  return (status === 'ok' || status === 'error') && typeof checks === 'object' && checks !== null;
}

/** A dependency the report does not mention counts as down: silence is not health. */
export function isUp(readiness: Readiness, dependency: Dependency): boolean {
  return readiness.checks[dependency]?.ok === true;
}
