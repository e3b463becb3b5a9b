/**
 * Splits the parameters of a ClickHouse HTTP request into what they are for:
 * the statement itself, `{name:Type}` parameter values, options the HTTP
 * handler consumes, and settings for the engine.
 */

export interface RequestOptions {
  query?: string;
  queryId?: string;
  database?: string;
  defaultFormat?: string;
  /** Raw `param_<name>` values (the engine parses them by declared type). */
  params: Record<string, string>;
  /** Engine settings for this one request. */
  settings: Record<string, string>;
  /** Options of the HTTP layer itself. */
  http: {
    enableCompression: boolean;
    compressionLevel?: number;
    /** `decompress=1`: body in ClickHouse's native block compression. */
    nativeCompressedBody: boolean;
    /** `compress=1`: response in ClickHouse's native block compression. */
    nativeCompressedResponse: boolean;
    user?: string;
    password?: string;
  };
}

/**
 * Parameters the ClickHouse HTTP handler treats as options rather than
 * settings. Sessions are accepted and ignored: every request here is
 * sessionless (see README).
 */
const HANDLER_OPTIONS = new Set([
  'query',
  'query_id',
  'database',
  'default_format',
  'user',
  'password',
  'quota_key',
  'role',
  'session_id',
  'session_timeout',
  'session_check',
  'close_session',
  'stacktrace',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'client_protocol_version',
]);

/**
 * Settings that only steer the HTTP layer. The whole response is produced
 * before it is sent, so progress headers and buffering options have nothing
 * to act on; compression is handled here rather than by the engine.
 */
const HTTP_LAYER_SETTINGS = new Set([
  'enable_http_compression',
  'http_zlib_compression_level',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'http_wait_end_of_query',
  'http_response_buffer_size',
  'http_native_compression_disable_checksumming_on_decompress',
  'add_http_cors_header',
  'cancel_http_readonly_queries_on_client_close',
]);

export function parseRequestOptions(entries: Iterable<[string, string]>): RequestOptions {
  const options: RequestOptions = {
    params: {},
    settings: {},
    http: {
      enableCompression: false,
      nativeCompressedBody: false,
      nativeCompressedResponse: false,
    },
  };
  for (const [key, value] of entries) {
    if (key.startsWith('param_')) {
      options.params[key.slice('param_'.length)] = value;
    } else if (HANDLER_OPTIONS.has(key)) {
      applyHandlerOption(options, key, value);
    } else if (HTTP_LAYER_SETTINGS.has(key)) {
      if (key === 'enable_http_compression') options.http.enableCompression = isTrue(value);
      if (key === 'http_zlib_compression_level' && /^\d+$/.test(value)) {
        options.http.compressionLevel = Number(value);
      }
    } else {
      options.settings[key] = value;
    }
  }
  return options;
}

function applyHandlerOption(options: RequestOptions, key: string, value: string): void {
  switch (key) {
    case 'query':
      options.query = options.query === undefined ? value : `${options.query}\n${value}`;
      break;
    case 'query_id':
      options.queryId = value;
      break;
    case 'database':
      if (value !== '') options.database = value;
      break;
    case 'default_format':
      if (value !== '') options.defaultFormat = value;
      break;
    case 'user':
      options.http.user = value;
      break;
    case 'password':
      options.http.password = value;
      break;
    case 'decompress':
      options.http.nativeCompressedBody = isTrue(value);
      break;
    case 'compress':
      options.http.nativeCompressedResponse = isTrue(value);
      break;
    default:
      break;
  }
}

function isTrue(value: string): boolean {
  return value === '1' || value.toLowerCase() === 'true';
}
