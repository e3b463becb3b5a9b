import type { DependencyCheck } from './schemas/health.js';

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
