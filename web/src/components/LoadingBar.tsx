import { useBackgroundLoading } from '../lib/backgroundLoads.ts';

/** Thin bar under the header while targets, heads or memory reports load in the background. */
export function LoadingBar() {
  const loading = useBackgroundLoading();
  return (
    <div
      className={`loading-bar${loading ? ' loading-bar--active' : ''}`}
      role="progressbar"
      aria-label="Loading data"
      aria-hidden={!loading}
    />
  );
}
