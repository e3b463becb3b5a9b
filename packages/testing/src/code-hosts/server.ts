import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One request as a stand-in sees it: the path without its query, the query, the JSON body. */
export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface StandInReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (request: StandInRequest) => StandInReply | Promise<StandInReply>;

export interface RunningStandIn {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request in arrival order, e.g. `POST /repos/o/r/statuses/abc`. */
  log: string[];
  close(): Promise<void>;
}

/** A JSON HTTP server on a free loopback port; each request is answered by `handler`. */
export async function serveJson(handler: Handler): Promise<RunningStandIn> {
  const log: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      log.push(`${req.method} ${url.pathname}`);
      Promise.resolve(
        handler({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
        }),
      )
        .catch((error: Error): StandInReply => ({ status: 500, body: { message: error.message } }))
        .then((reply) => {
          res.writeHead(reply.status, {
            ...(reply.body === undefined
              ? {}
              : { 'Content-Type': 'application/json; charset=utf-8' }),
            ...reply.headers,
          });
          res.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Holds the first `count` requests that reach it until all of them have arrived (or `timeoutMs`
 * passed), so concurrent clients provably interleave: every one of them reads before any writes.
 */
export class Barrier {
  private waiting: Array<() => void> = [];
  private remaining: number;

  constructor(
    count: number,
    private readonly timeoutMs = 30_000,
  ) {
    this.remaining = count;
  }

  async pass(): Promise<void> {
    if (this.remaining <= 0) return;
    this.remaining--;
    if (this.remaining === 0) {
      for (const release of this.waiting.splice(0)) release();
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.timeoutMs);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Page `page` (1-based) of `items`, `perPage` long. */
export function pageOf<T>(
  items: T[],
  query: URLSearchParams,
  defaultPerPage: number,
  maxPerPage = 100,
) {
  const perPage = Math.min(
    maxPerPage,
    Math.max(1, Number(query.get('per_page') ?? defaultPerPage) || defaultPerPage),
  );
  const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  return { items: items.slice((page - 1) * perPage, page * perPage), page, perPage, last };
}
