/**
 * A local stand-in for the GitHub REST API reads keyless uploads make — a repository, a pull
 * request — answering as GitHub does: canonical `full_name` whatever the case asked for, 404
 * `{message: "Not Found"}` for missing repositories and, to anonymous callers, private ones,
 * pull requests with `head`/`base` (base.repo carrying `private`), and a 403 with
 * `x-ratelimit-remaining: 0` once the anonymous allowance is used up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface StandInRepository {
  id: number;
  fullName: string;
  private: boolean;
}

export interface StandInPull {
  number: number;
  state: 'open' | 'closed';
  title: string;
  author: string;
  headSha: string;
  headRef: string;
  /** `owner/name` of the head repository: a fork's for fork pull requests. */
  headRepository: string;
  baseSha: string;
}

const DOCS = 'https://docs.github.com/rest';

export class GithubApiStandIn {
  readonly log: string[] = [];
  private readonly repositories = new Map<string, StandInRepository>();
  private readonly pulls = new Map<string, StandInPull>();
  /** Tokens that see private repositories; anonymous callers do not. */
  private readonly tokens = new Set<string>();
  /** Requests anonymous callers have left; Infinity: no limit. */
  anonymousAllowance = Infinity;
  /** When set, every request is answered with this status (GitHub having an outage). */
  outage: number | null = null;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<GithubApiStandIn> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const self = new GithubApiStandIn(server, `http://127.0.0.1:${port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => self.handle(req, res));
    return self;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  /** Creates or replaces a repository (a new id: deleted and created again). */
  repository(repository: StandInRepository): void {
    this.repositories.set(repository.fullName.toLowerCase(), repository);
  }

  pull(repository: string, pull: StandInPull): void {
    this.pulls.set(`${repository.toLowerCase()}#${pull.number}`, { ...pull });
  }

  /** Changes a pull request as a push or a close would. */
  update(repository: string, number: number, change: Partial<StandInPull>): void {
    const key = `${repository.toLowerCase()}#${number}`;
    this.pulls.set(key, { ...this.pulls.get(key)!, ...change });
  }

  allowToken(token: string): void {
    this.tokens.add(token);
  }

  /** How many times `path` was asked for. */
  count(path: string): number {
    return this.log.filter((line) => line === `GET ${path}`).length;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    this.log.push(`${req.method} ${path}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    if (this.outage !== null) return send(this.outage, { message: 'Server Error' });
    const token = /^(?:Bearer|token) (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const authenticated = token !== undefined && this.tokens.has(token);
    if (token !== undefined && !authenticated) {
      return send(401, { message: 'Bad credentials', documentation_url: DOCS });
    }
    if (!authenticated) {
      if (this.anonymousAllowance <= 0) {
        const reset = String(Math.floor(Date.now() / 1000) + 3600);
        return send(
          403,
          { message: 'API rate limit exceeded for 127.0.0.1.', documentation_url: DOCS },
          { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
        );
      }
      this.anonymousAllowance--;
    }
    const notFound = () => send(404, { message: 'Not Found', documentation_url: DOCS });
    const match = /^\/repos\/([^/]+)\/([^/]+)(?:\/pulls\/(\d+))?$/.exec(path);
    if (req.method !== 'GET' || !match) return notFound();
    const repo = this.repositories.get(`${match[1]}/${match[2]}`.toLowerCase());
    if (!repo || (repo.private && !authenticated)) return notFound();
    if (match[3] === undefined) return send(200, repositoryJson(repo));
    const pull = this.pulls.get(`${repo.fullName.toLowerCase()}#${match[3]}`);
    if (!pull) return notFound();
    const headRepo = this.repositories.get(pull.headRepository.toLowerCase()) ?? {
      id: repo.id + 1000,
      fullName: pull.headRepository,
      private: false,
    };
    return send(200, {
      url: `${this.url}/repos/${repo.fullName}/pulls/${pull.number}`,
      number: pull.number,
      state: pull.state,
      title: pull.title,
      user: { login: pull.author, type: 'User' },
      head: {
        label: `${pull.headRepository.split('/')[0]}:${pull.headRef}`,
        ref: pull.headRef,
        sha: pull.headSha,
        repo: repositoryJson(headRepo),
      },
      base: {
        label: `${repo.fullName.split('/')[0]}:main`,
        ref: 'main',
        sha: pull.baseSha,
        repo: repositoryJson(repo),
      },
      merged: false,
      draft: false,
    });
  }
}

function repositoryJson(repo: StandInRepository) {
  const [owner, name] = repo.fullName.split('/');
  return {
    id: repo.id,
    node_id: `R_${repo.id}`,
    name,
    full_name: repo.fullName,
    private: repo.private,
    visibility: repo.private ? 'private' : 'public',
    owner: { login: owner, type: 'User' },
    default_branch: 'main',
  };
}
