import { useParams } from 'react-router';

const TITLES = {
  dashboard: 'Dashboard',
  symbols: 'Symbol Analysis',
  compare: 'Compare Builds',
  'region-config': 'Region Config',
  commit: 'Commit',
  settings: 'Project Settings',
} as const;

export type TargetView = keyof typeof TITLES;

/**
 * Route holder for the project and target pages, whose content is built separately; until then
 * it says so plainly instead of showing fake data.
 */
export function TargetPage({ view }: { view: TargetView }) {
  const { targetName, commitSha } = useParams();
  return (
    <div className="page">
      <header className="page__header">
        <h1>{TITLES[view]}</h1>
        {targetName ? <p className="page__sub">Target {targetName}</p> : null}
        {commitSha ? <p className="page__sub">Commit {commitSha}</p> : null}
      </header>
      <div className="empty">
        <h2>Not available yet</h2>
        <p>This view is not part of this version of Memtrail.</p>
      </div>
    </div>
  );
}
