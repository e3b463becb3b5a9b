import type { Env } from '../git/ci.js';

/**
 * HTTP with bounded retries. Timeouts, connection errors and 429/502/503/504 are retried with
 * growing delays times a random factor of 1–1.5 (so a fleet of CI jobs does not retry in step);
 * a server's Retry-After is honoured when it asks for longer, up to a cap.
 */
export interface RetryPolicy {
  attempts: number;
  /** Delay before retry n (the last value repeats). */
  delaysMs: number[];
  timeoutMs: number;
  /** Upper bound for any single wait, including one asked for by Retry-After. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 5,
  delaysMs: [10_000, 30_000, 60_000, 120_000],
  timeoutMs: 120_000,
  maxDelayMs: 300_000,
};

function numberList(value: string, name: string): number[] {
  const parts = value.split(',').map((v) => Number(v.trim()));
  if (parts.length === 0 || parts.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new Error(`${name} must be a comma-separated list of milliseconds, got '${value}'`);
  }
  return parts;
}

function positive(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive integer, got '${value}'`);
  return n;
}

/** Tuning through the environment, e.g. short delays in tests or patient CI runners. */
export function retryPolicyFromEnv(env: Env): RetryPolicy {
  const policy = { ...DEFAULT_RETRY };
  if (env.MEMTRAIL_RETRY_DELAYS_MS)
    policy.delaysMs = numberList(env.MEMTRAIL_RETRY_DELAYS_MS, 'MEMTRAIL_RETRY_DELAYS_MS');
  if (env.MEMTRAIL_HTTP_ATTEMPTS)
    policy.attempts = positive(env.MEMTRAIL_HTTP_ATTEMPTS, 'MEMTRAIL_HTTP_ATTEMPTS');
  if (env.MEMTRAIL_HTTP_TIMEOUT_MS)
    policy.timeoutMs = positive(env.MEMTRAIL_HTTP_TIMEOUT_MS, 'MEMTRAIL_HTTP_TIMEOUT_MS');
  if (env.MEMTRAIL_RETRY_MAX_DELAY_MS) {
    policy.maxDelayMs = positive(env.MEMTRAIL_RETRY_MAX_DELAY_MS, 'MEMTRAIL_RETRY_MAX_DELAY_MS');
  }
  return policy;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

export class HttpError extends Error {
  constructor(
    message: string,
    readonly response?: HttpResponse,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const RETRIED_STATUS = new Set([429, 502, 503, 504]);

/** Seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function backoff(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined): number {
  const base = policy.delaysMs[Math.min(retry, policy.delaysMs.length - 1)] ?? 0;
  const jittered = base * (1 + Math.random() * 0.5);
  return Math.min(Math.max(jittered, retryAfterMs ?? 0), policy.maxDelayMs);
}

function errorDetail(response: HttpResponse): string {
  const body = response.json as { error?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.error === 'string'
    ? `\nError: ${body.error}`
    : '';
}

function describeFailure(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
  return err.cause?.code ?? err.cause?.message ?? err.message;
}

interface RawResponse extends HttpResponse {
  retryAfter: string | null;
}

async function attempt(request: HttpRequest, timeoutMs: number): Promise<RawResponse> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: Object.fromEntries(response.headers),
    text,
    json,
    retryAfter: response.headers.get('retry-after'),
  };
}

/**
 * Sends a request, retrying transient failures. Resolves with the first 2xx response; rejects
 * with HttpError (carrying the response when there was one) on any other outcome.
 */
export async function sendWithRetry(
  request: HttpRequest,
  policy: RetryPolicy,
  log: (line: string) => void,
): Promise<HttpResponse> {
  let lastProblem = '';
  for (let n = 1; n <= policy.attempts; n++) {
    log(`${request.method} ${request.url} (attempt ${n} of ${policy.attempts})...`);
    let retryAfterMs: number | undefined;
    try {
      const { retryAfter, ...result } = await attempt(request, policy.timeoutMs);
      if (result.status >= 200 && result.status < 300) return result;
      const problem = `HTTP error from ${request.url}: ${result.status} ${result.statusText}`;
      if (!RETRIED_STATUS.has(result.status))
        throw new HttpError(problem + errorDetail(result), result);
      lastProblem = problem;
      retryAfterMs = parseRetryAfter(retryAfter);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      lastProblem = `${request.method} ${request.url} failed: ${describeFailure(error)}`;
    }
    if (n < policy.attempts) {
      const delay = backoff(policy, n - 1, retryAfterMs);
      log(`${lastProblem}; retrying in ${(delay / 1000).toFixed(1)} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  throw new HttpError(`${lastProblem} (gave up after ${policy.attempts} attempts)`);
}
