import type { ServiceMetrics } from './service-metrics.js';

/** The parts of Express's request and response this middleware reads (no Express dependency). */
interface HttpRequest {
  method: string;
  baseUrl?: string;
  route?: { path?: unknown };
}
interface HttpResponse {
  statusCode: number;
  on(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * Express middleware observing every request's latency under its route pattern
 * (`/api/projects/:id`), read once the response is finished and routing has matched. Requests
 * that matched no route (static files, the web app's fallback, 404s) share one label so that
 * scanners cannot create unbounded series.
 */
export function httpMetricsMiddleware(metrics: ServiceMetrics) {
  return (req: HttpRequest, res: HttpResponse, next: () => void): void => {
    const stop = metrics.httpDuration.startTimer();
    let done = false;
    const observe = () => {
      if (done) return;
      done = true;
      const status = res.statusCode;
      stop({ method: req.method, route: routeOf(req), status_code: String(status) });
      if (status >= 500) metrics.errors.inc({ kind: 'http_5xx' });
    };
    res.on('finish', observe);
    // A client that hangs up early still spent server time.
    res.on('close', observe);
    next();
  };
}

function routeOf(req: HttpRequest): string {
  const path = req.route?.path;
  if (typeof path !== 'string') return 'unmatched';
  return `${req.baseUrl ?? ''}${path}` || '/';
}
