import type { ApiBody, ApiData, ApiPath, ApiQuery, OperationKey } from '@memtrail/contracts';
import type { AuthSession, FetchLike } from '../auth/types.ts';

// Core service client (spec §7, §8): bearer token on every call, one refresh-and-retry on 401,
// envelope errors turned into '{type or Error}: {error}', identical in-flight GETs shared. The
// anonymous client of public projects' pages sends no token.

export const API_MESSAGES = {
  noSession: 'No active session',
  sessionExpired: 'Session expired and refresh failed',
} as const;

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ApiClientOptions {
  coreUrl: string;
  /**
   * Signed-out reads of public projects: no token is sent and a 401 is an answer like any
   * other, not a lost session.
   */
  anonymous?: boolean;
  getSession(): Promise<AuthSession | null>;
  refreshSession(): Promise<AuthSession | null>;
  /** Where a lost session leads: the spec sends the browser to '/'. */
  onSessionLost(message: string): void;
  fetch?: FetchLike;
}

/** What a call of operation `K` sends: path parameters, query and body, typed by its schemas. */
export type CallArgs<K extends OperationKey> = ([ApiPath<K>] extends [never]
  ? { path?: never }
  : { path: ApiPath<K> }) &
  ([ApiQuery<K>] extends [never] ? { query?: never } : { query?: ApiQuery<K> }) &
  ([ApiBody<K>] extends [never] ? { body?: never } : { body: ApiBody<K> });

/** The arguments are optional only when the operation needs none. */
type CallArgsOf<K extends OperationKey> =
  Record<string, never> extends CallArgs<K> ? [args?: CallArgs<K>] : [args: CallArgs<K>];

/** `GET /api/{project}/targets`, `{path: {project: 'p 1'}}` → `['GET', '/api/p%201/targets']`. */
export function operationUrl(
  key: OperationKey,
  { path, query }: { path?: Record<string, string>; query?: Record<string, unknown> } = {},
): [method: string, url: string] {
  const [method, template] = key.split(' ') as [string, string];
  const url = template.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(path?.[name] ?? ''),
  );
  const params = new URLSearchParams(
    Object.entries(query ?? {}).flatMap(([name, value]) =>
      value === undefined || value === null ? [] : [[name, String(value)]],
    ),
  ).toString();
  return [method, params ? `${url}?${params}` : url];
}

export interface ApiClient {
  /** Operation `K` of the API (@memtrail/contracts' operations): its answer's `data`. */
  call<K extends OperationKey>(key: K, ...args: CallArgsOf<K>): Promise<ApiData<K>>;
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
  get<T>(path: string): Promise<T>;
  /** A file answer (exports): the body as a Blob, with the same session handling. */
  download(path: string): Promise<Blob>;
}

interface Envelope {
  status?: string;
  type?: string | null;
  error?: string | null;
  data?: unknown;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const inFlight = new Map<string, Promise<unknown>>();

  async function token(): Promise<string | null> {
    if (options.anonymous) return null;
    const session = (await options.getSession()) ?? (await options.refreshSession());
    if (!session) {
      options.onSessionLost(API_MESSAGES.noSession);
      throw new ApiError(API_MESSAGES.noSession);
    }
    return session.access_token;
  }

  const send = (method: string, path: string, accessToken: string | null, body: unknown) =>
    fetchFn(`${options.coreUrl}${path}`, {
      method,
      headers: {
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function respond(method: string, path: string, body: unknown): Promise<Response> {
    const response = await send(method, path, await token(), body);
    if (response.status !== 401 || options.anonymous) return response;
    const refreshed = await options.refreshSession();
    if (!refreshed) {
      options.onSessionLost(API_MESSAGES.sessionExpired);
      throw new ApiError(API_MESSAGES.sessionExpired, 401);
    }
    return send(method, path, refreshed.access_token, body);
  }

  async function perform<T>(method: string, path: string, body: unknown): Promise<T> {
    const response = await respond(method, path, body);
    const envelope = (await response.json().catch(() => null)) as Envelope | null;
    if (envelope?.status === 'error') {
      throw new ApiError(`${envelope.type || 'Error'}: ${envelope.error}`, response.status);
    }
    if (!response.ok) {
      throw new ApiError(
        `Core service error: ${response.status} ${response.statusText}`,
        response.status,
      );
    }
    return envelope?.data as T;
  }

  function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    if (method !== 'GET') return perform<T>(method, path, body);
    const key = `GET ${path}`;
    const shared = inFlight.get(key);
    if (shared) return shared as Promise<T>;
    const promise = perform<T>(method, path, undefined).finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  }

  async function download(path: string): Promise<Blob> {
    const response = await respond('GET', path, undefined);
    if (!response.ok) {
      const envelope = (await response.json().catch(() => null)) as Envelope | null;
      throw new ApiError(
        envelope?.status === 'error'
          ? `${envelope.type || 'Error'}: ${envelope.error}`
          : `Core service error: ${response.status} ${response.statusText}`,
        response.status,
      );
    }
    return response.blob();
  }

  function call<K extends OperationKey>(key: K, ...[args]: CallArgsOf<K>): Promise<ApiData<K>> {
    const [method, url] = operationUrl(key, args as Parameters<typeof operationUrl>[1]);
    return request<ApiData<K>>(method, url, args?.body);
  }

  return { call, request, get: (path) => request('GET', path), download };
}
