/** Links into the web app, as the upload answer and PR summaries give them. */
const root = (base: string) => base.replace(/\/$/, '');

export function dashboardUrl(base: string, projectId: string, target: string): string {
  return `${root(base)}/project/${projectId}/target/${encodeURIComponent(target)}`;
}

export function comparisonUrl(
  base: string,
  projectId: string,
  target: string,
  parentSha: string | null,
  commitSha: string,
): string {
  const query = new URLSearchParams({ ...(parentSha ? { base: parentSha } : {}), head: commitSha });
  return `${dashboardUrl(base, projectId, target)}/compare?${query}`;
}
