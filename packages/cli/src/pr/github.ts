/**
 * GitHub's REST API (also GitHub Enterprise Server, whose root is `https://HOST/api/v3`) with the
 * workflow's token: the issue comments of a pull request, commit statuses and check runs.
 */
import { RestClient, RestError, type RestOptions } from './rest.js';
import type { Comment, CommentThread } from './sticky.js';
import type { Verdict } from './verdict.js';

export const GITHUB_API = 'https://api.github.com';

/** GitHub's limit on an issue comment's body and a check run's summary. */
export const GITHUB_MAX_BODY = 65_536;

interface IssueComment {
  id: number;
  body?: string | null;
}

export interface PullRequest {
  number: number;
  state: string;
  head: { sha: string; ref: string };
}

export class GitHub {
  private readonly rest: RestClient;

  constructor(
    options: Omit<RestOptions, 'headers'> & { token: string; userAgent: string },
    private readonly repository: string,
  ) {
    this.rest = new RestClient({
      ...options,
      headers: {
        Authorization: `Bearer ${options.token}`,
        Accept: 'application/vnd.github+json',
        'X-GitHub-Api-Version': '2022-11-28',
        'User-Agent': options.userAgent,
      },
    });
  }

  private path(rest: string): string {
    return `/repos/${this.repository}${rest}`;
  }

  pull(number: number): Promise<PullRequest> {
    return this.rest.json<PullRequest>('GET', this.path(`/pulls/${number}`));
  }

  /**
   * The open pull request whose head is `owner:branch` at `sha`: how a workflow_run job finds
   * the pull request of a fork, whose number the event leaves out.
   */
  async pullForHead(owner: string, branch: string, sha: string): Promise<number | undefined> {
    const query = new URLSearchParams({
      head: `${owner}:${branch}`,
      state: 'open',
      per_page: '100',
    });
    const pulls = await this.rest.all<PullRequest>(this.path(`/pulls?${query}`));
    return pulls.find((p) => p.head?.sha === sha)?.number;
  }

  thread(number: number): CommentThread {
    const toComment = (c: IssueComment): Comment => ({ id: c.id, body: c.body ?? '' });
    return {
      list: async () =>
        (
          await this.rest.all<IssueComment>(this.path(`/issues/${number}/comments?per_page=100`))
        ).map(toComment),
      create: async (body) =>
        toComment(
          await this.rest.json<IssueComment>('POST', this.path(`/issues/${number}/comments`), {
            body,
          }),
        ),
      update: async (id, body) => {
        await this.rest.request('PATCH', this.path(`/issues/comments/${id}`), { body });
      },
      remove: async (id) => {
        try {
          await this.rest.request('DELETE', this.path(`/issues/comments/${id}`));
        } catch (error) {
          if (!(error instanceof RestError && error.status === 404)) throw error;
        }
      },
    };
  }

  /** A commit status: the latest one per context counts, so posting again is harmless. */
  async status(sha: string, verdict: Verdict): Promise<void> {
    await this.rest.request('POST', this.path(`/statuses/${sha}`), {
      state: verdict.ok ? 'success' : 'failure',
      context: verdict.context,
      description: verdict.description,
      ...(verdict.url ? { target_url: verdict.url } : {}),
    });
  }

  /** A completed check run named after the context, updated in place when one already exists. */
  async checkRun(sha: string, verdict: Verdict, summary: string): Promise<void> {
    const query = new URLSearchParams({ check_name: verdict.context, filter: 'latest' });
    const found = await this.rest.json<{ check_runs?: { id: number }[] }>(
      'GET',
      this.path(`/commits/${sha}/check-runs?${query}`),
    );
    const run = {
      name: verdict.context,
      status: 'completed',
      conclusion: verdict.ok ? 'success' : 'failure',
      ...(verdict.url ? { details_url: verdict.url } : {}),
      output: { title: verdict.description, summary: summary.slice(0, GITHUB_MAX_BODY - 1) },
    };
    const existing = found.check_runs?.[0];
    if (existing) {
      await this.rest.request('PATCH', this.path(`/check-runs/${existing.id}`), run);
    } else {
      await this.rest.request('POST', this.path('/check-runs'), { ...run, head_sha: sha });
    }
  }
}
