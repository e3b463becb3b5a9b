import { DEPENDENCIES, isUp, type Dependency } from '../lib/readiness.ts';
import { useReadiness } from '../lib/useReadiness.ts';

const LABELS: Record<Dependency, string> = {
  postgres: 'PostgreSQL',
  redis: 'Redis',
  clickhouse: 'ClickHouse',
  query: 'Query service',
};

type State = 'up' | 'down' | 'unknown';

/** Live view of the gateway's /readyz: one row per backing service. */
export function StatusPanel() {
  const { data, error, isLoading } = useReadiness();

  // A failed poll after a good one leaves SWR's last data in place; showing that as current
  // health would mislead, so while the gateway is unreachable every row is unknown.
  const stateOf = (dependency: Dependency): State =>
    data && !error ? (isUp(data, dependency) ? 'up' : 'down') : 'unknown';

  const note = error
    ? `Gateway unreachable: ${error.message}`
    : isLoading
      ? 'Checking…'
      : data?.status === 'ok'
        ? 'All systems operational'
        : 'Some services are unavailable';

  return (
    <section className="status-panel" aria-labelledby="status-heading">
      <header className="status-panel__header">
        <h2 id="status-heading">Service status</h2>
        <p className="status-panel__note" role="status">
          {note}
        </p>
      </header>
      <ul className="status-panel__list">
        {DEPENDENCIES.map((dependency) => {
          const state = stateOf(dependency);
          const detail = data?.checks[dependency]?.error;
          return (
            <li
              key={dependency}
              className="status-row"
              data-dependency={dependency}
              data-state={state}
            >
              <span className="status-row__dot" aria-hidden="true" />
              <span className="status-row__name">{LABELS[dependency]}</span>
              {detail && state === 'down' ? (
                <span className="status-row__detail" title={detail}>
                  {detail}
                </span>
              ) : null}
              <span className="status-row__state">{state}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
