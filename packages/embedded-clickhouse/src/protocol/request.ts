import type { IncomingMessage } from 'node:http';
import type { EngineRequest } from '../engine/connection.js';
import { isBlank, leadingKeyword, trailingFormat } from '../engine/sql.js';
import { ClickHouseException } from '../errors.js';
import { decodeBody } from './compression.js';
import { multipartBoundary, parseMultipart } from './multipart.js';
import { parseRequestOptions, type RequestOptions } from './params.js';

export interface Credentials {
  user: string;
  password: string;
}

/** A ClickHouse HTTP request, understood. */
export interface ParsedRequest {
  queryId: string | undefined;
  options: RequestOptions;
  credentials: Credentials;
  /** Undefined when there is nothing to run (a bare GET /). */
  engine: EngineRequest | undefined;
  /** True for an INSERT ... FORMAT whose body is empty: nothing to write. */
  emptyInsert: boolean;
  /** The format the response body is in. */
  outputFormat: string;
}

export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      throw ClickHouseException.of(
        'QUERY_IS_TOO_LARGE',
        `Request body exceeds the limit of ${limit} bytes`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

export async function parseRequest(req: IncomingMessage, rawBody: Buffer): Promise<ParsedRequest> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const entries: Array<[string, string]> = [...url.searchParams.entries()];
  let body = await decodeBody(rawBody, header(req, 'content-encoding'));

  const boundary = multipartBoundary(header(req, 'content-type'));
  if (boundary !== undefined) {
    for (const part of parseMultipart(body, boundary)) {
      if (part.filename !== undefined) {
        throw ClickHouseException.of(
          'NOT_IMPLEMENTED',
          'External tables (file parts in multipart requests) are not supported by the embedded ClickHouse',
        );
      }
      entries.push([part.name, part.value.toString('utf8')]);
    }
    body = Buffer.alloc(0);
  }

  const options = parseRequestOptions(entries);
  if (options.http.nativeCompressedBody || options.http.nativeCompressedResponse) {
    throw ClickHouseException.of(
      'NOT_IMPLEMENTED',
      'ClickHouse native block compression (compress/decompress=1) is not supported; use HTTP Content-Encoding',
    );
  }
  options.database ??= header(req, 'x-clickhouse-database') || undefined;
  options.defaultFormat ??= header(req, 'x-clickhouse-format') || undefined;

  const format = options.defaultFormat ?? 'TabSeparated';
  const parsed: ParsedRequest = {
    queryId: options.queryId,
    options,
    credentials: credentialsOf(req, options),
    engine: undefined,
    emptyInsert: false,
    outputFormat: format,
  };

  const request = (sql: string, data?: Buffer): EngineRequest => {
    const engine: EngineRequest = {
      sql,
      params: options.params,
      settings: options.settings,
      database: options.database ?? 'default',
      format,
    };
    if (data !== undefined) engine.data = data;
    return engine;
  };

  const query = options.query;
  const hasBody = body.length > 0;
  if (query !== undefined && leadingKeyword(query) === 'INSERT') {
    // The statement is in the URL and the body is its data, passed to the
    // engine as bytes rather than spliced into the SQL text.
    const format = trailingFormat(query);
    if (format !== undefined && isBlankBody(body)) {
      parsed.emptyInsert = true;
    } else {
      parsed.engine = request(query, hasBody ? body : undefined);
    }
    return parsed;
  }

  // As in ClickHouse, a query split between the URL and the body is one text.
  const text =
    query === undefined
      ? body.toString('utf8')
      : hasBody
        ? `${query}\n${body.toString('utf8')}`
        : query;
  if (isBlank(text)) {
    if (req.method === 'GET' || req.method === 'HEAD') return parsed;
    throw ClickHouseException.of('SYNTAX_ERROR', 'Empty query');
  }
  parsed.engine = request(text);
  parsed.outputFormat =
    leadingKeyword(text) === 'INSERT' ? format : (trailingFormat(text) ?? format);
  return parsed;
}

/** True when the body holds only whitespace; scans bytes instead of decoding a large body. */
function isBlankBody(body: Buffer): boolean {
  for (const byte of body) {
    // space, \t, \n, \v, \f, \r
    if (byte !== 0x20 && (byte < 0x09 || byte > 0x0d)) return false;
  }
  return true;
}

function credentialsOf(req: IncomingMessage, options: RequestOptions): Credentials {
  const auth = header(req, 'authorization');
  if (auth && /^basic /i.test(auth)) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0
      ? { user: decoded, password: '' }
      : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return {
    user: header(req, 'x-clickhouse-user') || options.http.user || 'default',
    password: header(req, 'x-clickhouse-key') || options.http.password || '',
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
