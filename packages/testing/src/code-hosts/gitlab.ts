/**
 * A local stand-in for GitLab's REST API v4 as CI tools use it on merge requests: notes and
 * commit statuses. It answers as GitLab does — `/api/v4/projects/:id` by numeric id or URL-encoded
 * path, `PRIVATE-TOKEN` and `JOB-TOKEN` authentication, `{message}` errors, `X-Next-Page`
 * pagination, system notes among the user's, and the commit-status state machine that refuses
 * to post the state a status already holds (400 "Cannot transition status via …").
 */
import {
  Barrier,
  pageOf,
  serveJson,
  type RunningStandIn,
  type StandInReply,
  type StandInRequest,
} from './server.js';

export interface GitlabToken {
  username: string;
  kind: 'private' | 'job';
  /** False: a token that may read but not write (e.g. a job token on an instance that forbids it). */
  write: boolean;
}

export interface GitlabNote {
  id: number;
  body: string;
  author: string;
  system: boolean;
}

export interface GitlabStatus {
  name: string;
  status: string;
  description: string | null;
  target_url: string | null;
}

/** The state-machine event GitLab names for each target state. */
const EVENTS: Record<string, string> = {
  pending: 'enqueue',
  running: 'run',
  success: 'succeed',
  failed: 'drop',
  canceled: 'cancel',
};

const fail = (status: number, message: unknown): StandInReply => ({ status, body: { message } });

class Project {
  mergeRequests = new Map<number, { iid: number; sha: string; state: string }>();
  notes = new Map<number, GitlabNote[]>();
  statuses = new Map<string, GitlabStatus[]>();
  constructor(
    readonly id: number,
    readonly path: string,
  ) {}
}

export class GitlabStandIn {
  private readonly tokens = new Map<string, GitlabToken>();
  private readonly projects: Project[] = [];
  private nextId = 500;
  private listBarrier: Barrier | undefined;

  private constructor(private readonly server: RunningStandIn) {}

  static async start(): Promise<GitlabStandIn> {
    // The server needs the stand-in's handler, the stand-in the running server.
    const ref: { current?: GitlabStandIn } = {};
    const server = await serveJson((request) => ref.current!.handle(request));
    return (ref.current = new GitlabStandIn(server));
  }

  /** CI_API_V4_URL */
  get apiUrl(): string {
    return `${this.server.origin}/api/v4`;
  }

  get log(): string[] {
    return this.server.log;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  token(value: string, token: GitlabToken): void {
    this.tokens.set(value, token);
  }

  project(id: number, path: string): Project {
    const project = new Project(id, path);
    this.projects.push(project);
    return project;
  }

  mergeRequest(projectId: number, iid: number, sha: string): void {
    this.find(String(projectId))!.mergeRequests.set(iid, { iid, sha, state: 'opened' });
  }

  notes(projectId: number, iid: number): GitlabNote[] {
    return [...(this.find(String(projectId))!.notes.get(iid) ?? [])];
  }

  addNote(
    projectId: number,
    iid: number,
    body: string,
    options: { system?: boolean; author?: string } = {},
  ): void {
    const project = this.find(String(projectId))!;
    const notes = project.notes.get(iid) ?? [];
    notes.push({
      id: this.nextId++,
      body,
      author: options.author ?? 'project_bot',
      system: options.system ?? false,
    });
    project.notes.set(iid, notes);
  }

  statuses(projectId: number, sha: string): GitlabStatus[] {
    return [...(this.find(String(projectId))!.statuses.get(sha) ?? [])];
  }

  holdNoteLists(count: number): void {
    this.listBarrier = new Barrier(count);
  }

  private find(id: string): Project | undefined {
    const decoded = decodeURIComponent(id);
    return this.projects.find((p) => String(p.id) === decoded || p.path === decoded);
  }

  private auth(request: StandInRequest): GitlabToken | StandInReply {
    const privateToken = request.headers['private-token'];
    const jobToken = request.headers['job-token'];
    const value =
      typeof privateToken === 'string'
        ? privateToken
        : typeof jobToken === 'string'
          ? jobToken
          : '';
    const token = this.tokens.get(value);
    if (!token || token.kind !== (typeof privateToken === 'string' ? 'private' : 'job')) {
      return fail(401, '401 Unauthorized');
    }
    return token;
  }

  private async handle(request: StandInRequest): Promise<StandInReply> {
    // The raw path keeps %2F inside a project path, as GitLab's router expects.
    const match = /^\/api\/v4\/projects\/([^/]+)(\/.*)?$/.exec(request.path);
    if (!match) return fail(404, '404 Not Found');
    const user = this.auth(request);
    if ('status' in user) return user;
    const project = this.find(match[1]!);
    if (!project) return fail(404, '404 Project Not Found');
    const route = (match[2] ?? '').split('/').filter(Boolean);
    const m = request.method;
    if (m !== 'GET' && !user.write) return fail(403, '403 Forbidden');

    if (route[0] === 'merge_requests' && route[1]) {
      const mr = project.mergeRequests.get(Number(route[1]));
      if (!mr) return fail(404, '404 Not found');
      if (route.length === 2 && m === 'GET') {
        return {
          status: 200,
          body: { iid: mr.iid, sha: mr.sha, state: mr.state, project_id: project.id },
        };
      }
      if (route[2] === 'notes') {
        const notes = project.notes.get(mr.iid) ?? [];
        project.notes.set(mr.iid, notes);
        if (route.length === 3 && m === 'GET') {
          await this.listBarrier?.pass();
          const sorted = [...notes].sort((a, b) =>
            request.query.get('sort') === 'asc' ? a.id - b.id : b.id - a.id,
          );
          const { items, page, last } = pageOf(sorted, request.query, 20);
          return {
            status: 200,
            body: items.map(noteJson),
            headers: {
              'X-Page': String(page),
              'X-Total-Pages': String(last),
              'X-Next-Page': page < last ? String(page + 1) : '',
            },
          };
        }
        if (route.length === 3 && m === 'POST') {
          const body = (request.body as { body?: unknown } | undefined)?.body;
          if (typeof body !== 'string' || body.trim() === '')
            return fail(400, { body: ["can't be blank"] });
          const note = { id: this.nextId++, body, author: user.username, system: false };
          notes.push(note);
          return { status: 201, body: noteJson(note) };
        }
        const index = notes.findIndex((n) => n.id === Number(route[3]));
        if (route.length === 4 && index < 0) return fail(404, '404 Note Not Found');
        if (route.length === 4 && m === 'PUT') {
          const note = notes[index]!;
          if (note.author !== user.username) return fail(403, '403 Forbidden');
          const body = (request.body as { body?: unknown } | undefined)?.body;
          if (typeof body !== 'string' || body.trim() === '')
            return fail(400, { body: ["can't be blank"] });
          note.body = body;
          return { status: 200, body: noteJson(note) };
        }
        if (route.length === 4 && m === 'DELETE') {
          notes.splice(index, 1);
          return { status: 204 };
        }
      }
    }
    if (route[0] === 'statuses' && route[1] && route.length === 2 && m === 'POST') {
      const input = (request.body ?? {}) as {
        state?: string;
        name?: string;
        context?: string;
        description?: string;
        target_url?: string;
      };
      const event = EVENTS[input.state ?? ''];
      if (!event) return fail(400, 'state does not have a valid value');
      const name = input.name ?? input.context ?? 'default';
      const list = project.statuses.get(route[1]) ?? [];
      const current = [...list].reverse().find((s) => s.name === name);
      if (current && current.status === input.state) {
        return fail(
          400,
          `Cannot transition status via :${event} from :${current.status} (Reason(s): Status cannot transition via "${event}")`,
        );
      }
      const status = {
        name,
        status: input.state!,
        description: input.description ?? null,
        target_url: input.target_url ?? null,
      };
      list.push(status);
      project.statuses.set(route[1], list);
      return { status: 201, body: { id: this.nextId++, sha: route[1], ...status } };
    }
    return fail(404, '404 Not Found');
  }
}

function noteJson(n: GitlabNote) {
  return { id: n.id, body: n.body, system: n.system, author: { username: n.author } };
}
