import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { GatewayConfig } from '../config.js';

/** A repository as the GitHub API shows it. */
export interface GithubRepository {
  id: number;
  /** `owner/name` as GitHub spells it. */
  fullName: string;
  private: boolean;
}

export interface GithubPullRequest {
  number: number;
  state: 'open' | 'closed';
  title: string;
  /** Login of the pull request's author. */
  author: string | null;
  headSha: string;
  /** `owner:branch` of the head: a fork's branch never reads like one of the base repository. */
  headLabel: string;
  /** The repository the pull request is opened in. */
  base: GithubRepository;
}

type Found<T> = { found: true; value: T } | { found: false };

const TIMEOUT_MS = 10_000;
/** Entries kept: every lookup costs one of a small hourly GitHub allowance, so hits matter. */
const CACHE_ENTRIES = 2_000;

interface RepositoryJson {
  id: number;
  full_name: string;
  private: boolean;
}

interface PullJson {
  number: number;
  state: 'open' | 'closed';
  title: string;
  user: { login: string } | null;
  head: { sha: string; label: string };
  base: { repo: RepositoryJson };
}

const repositoryOf = (json: RepositoryJson): GithubRepository => ({
  id: json.id,
  fullName: json.full_name,
  private: json.private,
});

/**
 * The GitHub REST API lookups keyless uploads and repository links need (GITHUB_API_URL, so
 * GitHub Enterprise Server works too). Answers, "not found" included, are reused for
 * GITHUB_API_CACHE_S, and concurrent lookups of one thing share a request: a matrix of target
 * jobs finishing together costs one call. When GitHub cannot answer (unreachable, rate limit,
 * refused token) the lookup throws 503, which upload clients retry.
 */
@Injectable()
export class GithubApi {
  /** Null when GITHUB_API_CACHE_S is 0. */
  private readonly cache: LRUCache<string, Found<unknown>> | null;
  private readonly inFlight = new Map<string, Promise<Found<unknown>>>();

  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {
    this.cache =
      config.GITHUB_API_CACHE_S > 0
        ? new LRUCache({ max: CACHE_ENTRIES, ttl: config.GITHUB_API_CACHE_S * 1000 })
        : null;
  }

  /** The repository, or null when GitHub does not show it (missing, or private to us). */
  async repository(fullName: string): Promise<GithubRepository | null> {
    const found = await this.get<RepositoryJson>(`/repos/${fullName}`, false);
    return found.found ? repositoryOf(found.value) : null;
  }

  /**
   * Pull request `number` of the repository, or null when there is none. `fresh` skips the
   * cache, for when a cached answer may be outdated (the head moved since).
   */
  async pullRequest(
    fullName: string,
    number: number,
    fresh = false,
  ): Promise<GithubPullRequest | null> {
    const found = await this.get<PullJson>(`/repos/${fullName}/pulls/${number}`, fresh);
    if (!found.found) return null;
    const pull = found.value;
    return {
      number: pull.number,
      state: pull.state,
      title: pull.title,
      author: pull.user?.login ?? null,
      headSha: pull.head.sha.toLowerCase(),
      headLabel: pull.head.label,
      base: repositoryOf(pull.base.repo),
    };
  }

  private async get<T>(path: string, fresh: boolean): Promise<Found<T>> {
    const key = path.toLowerCase();
    const cached = fresh ? undefined : this.cache?.get(key);
    if (cached) return cached as Found<T>;
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<Found<T>>;
    const request = this.request<T>(path)
      .then((answer) => {
        this.cache?.set(key, answer);
        return answer;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, request);
    return request;
  }

  private async request<T>(path: string): Promise<Found<T>> {
    const url = `${this.config.GITHUB_API_URL.replace(/\/+$/, '')}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: {
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': 'memtrail',
          ...(this.config.GITHUB_API_TOKEN
            ? { authorization: `Bearer ${this.config.GITHUB_API_TOKEN}` }
            : {}),
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new ServiceUnavailableException(
        `GitHub API unreachable (${url}): ${(error as Error).message}; retry later`,
      );
    }
    if (response.ok) return { found: true, value: (await response.json()) as T };
    // GitHub answers 404 for repositories a caller may not see, as for missing ones.
    if (response.status === 404) return { found: false };
    throw new ServiceUnavailableException(unavailableMessage(response, url));
  }
}

function unavailableMessage(response: Response, url: string): string {
  const remaining = response.headers.get('x-ratelimit-remaining');
  if ((response.status === 403 || response.status === 429) && remaining === '0') {
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    const at = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : null;
    return (
      `GitHub API rate limit reached${at ? ` until ${at}` : ''}; retry later ` +
      '(the operator can raise it with GITHUB_API_TOKEN)'
    );
  }
  if (response.status === 401) {
    return 'GitHub API refused the configured GITHUB_API_TOKEN; the operator must replace it';
  }
  return `GitHub API answered ${response.status} ${response.statusText} for ${url}; retry later`;
}
