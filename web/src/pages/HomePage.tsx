import { StatusPanel } from '../components/StatusPanel.tsx';

// Placeholder home until the public landing page and the signed-in projects list exist.
export function HomePage() {
  return (
    <div className="home">
      <section className="hero">
        <h1 className="hero__title">Memtrail</h1>
        <p className="hero__pitch">
          Track the memory footprint of your firmware across commits: time series charts, commit
          history correlation, comparison of any two builds, symbol analysis and memory layout
          visualization, for any CI system.
        </p>
      </section>
      <StatusPanel />
    </div>
  );
}
