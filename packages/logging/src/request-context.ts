import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header a request id arrives in and is echoed back in (set it at the load balancer). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids from outside are kept only when short and plain, so they cannot forge log lines. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const storage = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Runs `work` with `requestId` as the current request id: every log line written inside it,
 * however deep in async calls, carries `requestId`, and outgoing query calls and jobs pass it on.
 */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** The caller's id when it is acceptable, else a new one. */
export function acceptRequestId(incoming: unknown): string {
  return typeof incoming === 'string' && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
}

interface HeaderRequest {
  headers: Record<string, string | string[] | undefined>;
}
interface HeaderResponse {
  setHeader(name: string, value: string): unknown;
}

/**
 * Express middleware: takes the request id from `X-Request-Id` (or makes one), echoes it in the
 * response and runs the rest of the request inside it.
 */
export function requestIdMiddleware(req: HeaderRequest, res: HeaderResponse, next: () => void) {
  const requestId = acceptRequestId(req.headers[REQUEST_ID_HEADER]);
  res.setHeader(REQUEST_ID_HEADER, requestId);
  runWithRequestId(requestId, next);
}
