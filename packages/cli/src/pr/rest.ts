import { HttpError, sendWithRetry, type HttpResponse, type RetryPolicy } from '../upload/http.js';

/** A refusal from a code host's REST API, with its status and its own message. */
export class RestError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

export interface RestOptions {
  /** API root, e.g. `https://api.github.com` or `https://gitlab.example.com/api/v4`. */
  baseUrl: string;
  headers: Record<string, string>;
  policy: RetryPolicy;
  log: (line: string) => void;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The host's own explanation: GitHub and GitLab both answer `{message}` (GitLab may nest it). */
function hostMessage(response: HttpResponse | undefined): string {
  const body = response?.json as { message?: unknown; error?: unknown } | undefined;
  const message = body?.message ?? body?.error;
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object') return JSON.stringify(message);
  return response?.text.slice(0, 200) ?? '';
}

/** JSON over HTTP against one API root, retrying what is transient (429, 502–504, resets). */
export class RestClient {
  constructor(private readonly options: RestOptions) {}

  url(path: string): string {
    return path.startsWith('http') ? path : `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  async request(method: Method, path: string, body?: unknown): Promise<HttpResponse> {
    const headers: Record<string, string> = { Accept: 'application/json', ...this.options.headers };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await sendWithRetry(
        {
          method,
          url: this.url(path),
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        this.options.policy,
        this.options.log,
      );
    } catch (error) {
      if (error instanceof HttpError && error.response) {
        const { status, statusText } = error.response;
        const detail = hostMessage(error.response);
        throw new RestError(
          `${method} ${this.url(path)}: ${status} ${statusText}${detail ? ` (${detail})` : ''}`,
          status,
        );
      }
      throw new RestError((error as Error).message, undefined);
    }
  }

  async json<T>(method: Method, path: string, body?: unknown): Promise<T> {
    return (await this.request(method, path, body)).json as T;
  }

  /**
   * Every item of a paged list: GitHub's `Link: <…>; rel="next"` or GitLab's `X-Next-Page`,
   * bounded so a misbehaving server cannot keep us paging forever.
   */
  async all<T>(path: string, maxPages = 100): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = path;
    for (let page = 0; next && page < maxPages; page++) {
      const response = await this.request('GET', next);
      if (!Array.isArray(response.json)) {
        throw new RestError(`GET ${this.url(next)} did not answer a list`, response.status);
      }
      items.push(...(response.json as T[]));
      next = nextPage(response, next);
    }
    return items;
  }
}

function nextPage(response: HttpResponse, current: string): string | undefined {
  const link = response.headers.link;
  if (link) {
    const match = /<([^>]+)>;\s*rel="next"/.exec(link);
    return match?.[1];
  }
  const page = response.headers['x-next-page'];
  if (page) {
    const url = new URL(current, 'http://placeholder');
    url.searchParams.set('page', page);
    return current.startsWith('http') ? url.toString() : `${url.pathname}${url.search}`;
  }
  return undefined;
}
