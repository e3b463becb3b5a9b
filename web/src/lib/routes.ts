// Paths of the signed-in pages (spec §2). Target names are URL-encoded in every path.

const seg = encodeURIComponent;

export const paths = {
  projects: () => '/',
  project: (projectId: string) => `/project/${seg(projectId)}`,
  dashboard: (projectId: string, target: string) =>
    `/project/${seg(projectId)}/target/${seg(target)}`,
  symbols: (projectId: string, target: string) => `${paths.dashboard(projectId, target)}/symbols`,
  compare: (projectId: string, target: string) => `${paths.dashboard(projectId, target)}/compare`,
  regionConfig: (projectId: string, target: string) =>
    `${paths.dashboard(projectId, target)}/region-config`,
  commit: (projectId: string, target: string, sha: string) =>
    `${paths.dashboard(projectId, target)}/commit/${seg(sha)}`,
  settings: (projectId: string) => `/project/${seg(projectId)}/settings`,
  targets: (projectId: string) => `/project/${seg(projectId)}/targets`,
  organization: () => '/organization',
  invitation: (token: string) => `/invitations/${seg(token)}`,
};

/** Project and target named by a path, decoded; empty outside project pages. */
export function projectRouteOf(pathname: string): { projectId?: string; targetName?: string } {
  const match = /^\/project\/([^/]+)(?:\/target\/([^/]+))?/.exec(pathname);
  if (!match?.[1]) return {};
  return {
    projectId: decodeURIComponent(match[1]),
    targetName: match[2] ? decodeURIComponent(match[2]) : undefined,
  };
}
