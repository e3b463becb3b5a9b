/**
 * Errors that mean a store is unreachable, not that the job is wrong: retrying the job soon
 * would only burn its attempts, so the worker pauses instead (see ReportsConsumer).
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
]);

export function isStoreUnreachable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (
      typeof message === 'string' &&
      /socket hang up|ECONNREFUSED|Can't reach database server|Connection terminated/i.test(message)
    ) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
