/**
 * GitLab's REST API v4: the notes of a merge request and commit statuses, with a project (or
 * personal) access token, or the job's own CI_JOB_TOKEN where the instance lets it write.
 */
import { RestClient, RestError, type RestOptions } from './rest.js';
import type { Comment, CommentThread } from './sticky.js';
import type { Verdict } from './verdict.js';

/** GitLab's limit on a note's body. */
export const GITLAB_MAX_BODY = 1_000_000;

interface Note {
  id: number;
  body?: string | null;
  system?: boolean;
}

export type GitlabAuth = { kind: 'private'; token: string } | { kind: 'job'; token: string };

export class GitLab {
  private readonly rest: RestClient;
  private readonly project: string;

  constructor(
    options: Omit<RestOptions, 'headers'> & { auth: GitlabAuth; userAgent: string },
    project: string,
  ) {
    const header = options.auth.kind === 'private' ? 'PRIVATE-TOKEN' : 'JOB-TOKEN';
    this.rest = new RestClient({
      ...options,
      headers: { [header]: options.auth.token, 'User-Agent': options.userAgent },
    });
    this.project = `/projects/${encodeURIComponent(project)}`;
  }

  async mergeRequestHead(iid: number): Promise<string> {
    const mr = await this.rest.json<{ sha?: string }>(
      'GET',
      `${this.project}/merge_requests/${iid}`,
    );
    return mr.sha ?? '';
  }

  thread(iid: number): CommentThread {
    const notes = `${this.project}/merge_requests/${iid}/notes`;
    const toComment = (n: Note): Comment => ({ id: n.id, body: n.body ?? '' });
    return {
      list: async () =>
        (await this.rest.all<Note>(`${notes}?per_page=100&sort=asc&order_by=created_at`))
          .filter((n) => !n.system)
          .map(toComment),
      create: async (body) => toComment(await this.rest.json<Note>('POST', notes, { body })),
      update: async (id, body) => {
        await this.rest.request('PUT', `${notes}/${id}`, { body });
      },
      remove: async (id) => {
        try {
          await this.rest.request('DELETE', `${notes}/${id}`);
        } catch (error) {
          if (!(error instanceof RestError && error.status === 404)) throw error;
        }
      },
    };
  }

  /**
   * A commit status named after the context. GitLab refuses to post the state a status already
   * has ("Cannot transition status via :succeed from :success"): that answer means it is set.
   */
  async status(sha: string, verdict: Verdict): Promise<void> {
    try {
      await this.rest.request('POST', `${this.project}/statuses/${sha}`, {
        state: verdict.ok ? 'success' : 'failed',
        name: verdict.context,
        description: verdict.description,
        ...(verdict.url ? { target_url: verdict.url } : {}),
      });
    } catch (error) {
      if (
        error instanceof RestError &&
        error.status === 400 &&
        /Cannot transition status/.test(error.message)
      ) {
        return;
      }
      throw error;
    }
  }
}
