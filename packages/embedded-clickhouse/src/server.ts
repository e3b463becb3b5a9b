import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EngineResult } from './engine/connection.js';
import { EnginePool } from './engine/pool.js';
import { ClickHouseException, fromEngineError, httpStatusFor } from './errors.js';
import { encodeBody, pickEncoding } from './protocol/compression.js';
import { parseRequest, readBody, type Credentials } from './protocol/request.js';
import { contentTypeFor, summaryHeader } from './protocol/response.js';

export interface EmbeddedClickHouseOptions {
  /** Directory holding the databases; created if missing. */
  dataDir: string;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** chdb connections; statements on different connections run in parallel. */
  connections?: number;
  /** Largest accepted request body (after decompression), in bytes. */
  maxBodyBytes?: number;
  /** When set, requests must carry these credentials; otherwise any are accepted. */
  auth?: Credentials;
  /** Called for failures that are not the client's fault (the server keeps running). */
  onError?: (err: unknown, context: { queryId?: string }) => void;
}

export interface EmbeddedClickHouse {
  url: string;
  port: number;
  host: string;
  dataDir: string;
  /** Engine version, e.g. 26.7.2.1. */
  version: string;
  /** Stops accepting requests, waits for running ones, releases the data directory. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 512 * 1024 * 1024;
const KEEP_ALIVE_SECONDS = 10;

export async function startEmbeddedClickHouse(
  options: EmbeddedClickHouseOptions,
): Promise<EmbeddedClickHouse> {
  const host = options.host ?? '127.0.0.1';
  const pool = await EnginePool.open({
    dataDir: options.dataDir,
    size: options.connections ?? 3,
  });
  const handler = new RequestHandler(pool, options);
  const server = createServer((req, res) => void handler.handle(req, res));
  // Announced in Keep-Alive headers; @clickhouse/client retires sockets before
  // this expires, so it never writes to a socket the server is closing.
  server.keepAliveTimeout = (KEEP_ALIVE_SECONDS + 1) * 1000;

  try {
    await listen(server, host, options.port ?? 0);
  } catch (err) {
    await pool.close();
    throw new Error(`Cannot listen on ${host}:${options.port ?? 0}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    dataDir: pool.dataDir,
    version: pool.version,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await handler.drain();
        server.closeAllConnections();
        await stopped;
        await pool.close();
      })();
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

class RequestHandler {
  private inFlight = 0;
  private idle: (() => void) | undefined;

  constructor(
    private readonly pool: EnginePool,
    private readonly options: EmbeddedClickHouseOptions,
  ) {}

  /** Resolves once no request is being processed. */
  drain(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight++;
    try {
      await this.route(req, res);
    } catch (err) {
      this.options.onError?.(err, {});
      if (!res.headersSent) res.writeHead(500);
      res.end();
    } finally {
      if (--this.inFlight === 0) this.idle?.();
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // Health endpoints never touch the engine, so they answer even while
    // every connection is busy with long statements.
    if (path === '/ping' || path === '/replicas_status') {
      return sendText(res, 200, 'Ok.\n');
    }
    if (path !== '/') {
      return sendText(
        res,
        404,
        `There is no handle ${path}\n\nUse / or /ping for health checks.\n`,
      );
    }
    if (req.method !== 'GET' && req.method !== 'POST' && req.method !== 'HEAD') {
      return sendText(res, 405, `Method ${req.method} is not allowed\n`);
    }
    await this.query(req, res);
  }

  private async query(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let queryId: string = randomUUID();
    try {
      const parsed = await parseRequest(
        req,
        await readBody(req, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY),
      );
      queryId = parsed.queryId || queryId;
      this.authenticate(parsed.credentials);
      if (!parsed.engine && !parsed.emptyInsert) {
        return sendText(res, 200, 'Ok.\n');
      }
      const result: EngineResult | undefined = parsed.engine
        ? await this.pool.run(parsed.engine)
        : undefined;

      let body = result?.body ?? Buffer.alloc(0);
      const headers: Record<string, string> = {
        'Content-Type': contentTypeFor(parsed.outputFormat),
        'X-ClickHouse-Query-Id': queryId,
        'X-ClickHouse-Format': parsed.outputFormat,
        'X-ClickHouse-Timezone': this.pool.timezone,
        'X-ClickHouse-Server-Display-Name': 'memtrail-embedded-clickhouse',
        'X-ClickHouse-Summary': summaryHeader(result),
        'Keep-Alive': `timeout=${KEEP_ALIVE_SECONDS}`,
      };
      const encoding = parsed.options.http.enableCompression
        ? pickEncoding(headerOf(req, 'accept-encoding'))
        : undefined;
      if (encoding && body.length > 0) {
        body = await encodeBody(body, encoding, parsed.options.http.compressionLevel);
        headers['Content-Encoding'] = encoding;
      }
      headers['Content-Length'] = String(body.length);
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      const error = fromEngineError(err);
      if (error.type === 'LOGICAL_ERROR' || error.type === 'UNKNOWN_EXCEPTION') {
        this.options.onError?.(err, { queryId });
      }
      // The body may not have been read (e.g. it was too large); stop reading it.
      req.resume();
      const body = Buffer.from(error.toBody(this.pool.version));
      res.writeHead(httpStatusFor(error), {
        'Content-Type': 'text/plain; charset=UTF-8',
        'Content-Length': String(body.length),
        'X-ClickHouse-Query-Id': queryId,
        'X-ClickHouse-Exception-Code': String(error.code),
        'X-ClickHouse-Timezone': this.pool.timezone,
        'Keep-Alive': `timeout=${KEEP_ALIVE_SECONDS}`,
      });
      res.end(body);
    }
  }

  private authenticate(credentials: Credentials): void {
    const expected = this.options.auth;
    if (!expected) return;
    if (!(
      sameText(credentials.user, expected.user) && sameText(credentials.password, expected.password)
    )) {
      throw ClickHouseException.of(
        'AUTHENTICATION_FAILED',
        `${credentials.user}: Authentication failed: password is incorrect, or there is no user with such name`,
      );
    }
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=UTF-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
