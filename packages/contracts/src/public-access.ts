/**
 * Public projects, their linked GitHub repository and keyless uploads (docs/public-projects.md).
 *
 * | Method + path                          | Who                      | data                         |
 * | -------------------------------------- | ------------------------ | ---------------------------- |
 * | GET /api/projects/{id}/public-access   | members                  | {@link PublicAccessData}     |
 * | PUT /api/projects/{id}/public-access   | owners                   | {@link PublicAccessData}     |
 * | GET /api/public/projects/{id}          | anyone, public projects  | {@link PublicProjectData}    |
 * | GET /badge/{id}/{target}.svg           | anyone, public projects  | SVG image                    |
 * | GET /badge/{id}/{target}.json          | anyone, public projects  | {@link ShieldsEndpointBadge} |
 */

/** The OIDC audience of a project: a token names the project it uploads to. */
export const oidcAudience = (projectId: string) => `memtrail:${projectId}`;

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export const GITHUB_REPOSITORY_MESSAGE =
  'Repository must be owner/name or a repository URL, e.g. https://github.com/owner/name';

/**
 * `owner/name` from what a user types: `owner/name`, an https or ssh repository URL (any host,
 * for GitHub Enterprise), with or without `.git`. Null when it is not a repository.
 */
export function parseGithubRepository(input: string): string | null {
  let text = input.trim();
  const ssh = /^[\w.-]+@[\w.-]+:(.+)$/.exec(text);
  if (ssh) text = ssh[1]!;
  else if (/^https?:\/\//i.test(text)) {
    try {
      text = new URL(text).pathname;
    } catch {
      return null;
    }
  }
  const parts = text
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .split('/');
  if (parts.length !== 2) return null;
  const [owner, name] = parts as [string, string];
  if (!OWNER.test(owner) || !NAME.test(name) || name === '.' || name === '..') return null;
  return `${owner}/${name}`;
}

/** GitHub compares repository names without regard to case. */
export const sameRepository = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
