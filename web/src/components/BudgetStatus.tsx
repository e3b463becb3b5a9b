import type { BudgetStatusData } from '@memtrail/contracts';
import { Link } from 'react-router';
import { formatBytes, formatInt } from '../lib/format.ts';

/**
 * Every budget of the target at one commit: exceeded (red, with the figures), within, or not
 * applying to the commit's branch. Nothing when the target has no budget.
 */
export function BudgetStatus({
  status,
  settingsPath,
}: {
  status: BudgetStatusData | undefined;
  settingsPath: string;
}) {
  if (!status?.budgets.length) return null;
  const exceeded = status.budgets.filter((b) => b.exceeded).length;
  return (
    <section className="panel budgets-state" aria-labelledby="budgets-state-title">
      <div className="panel__head">
        <h2 id="budgets-state-title">Budgets</h2>
        <span className={`budget-flag budget-flag--${exceeded ? 'bad' : 'ok'}`}>
          {exceeded ? `${exceeded} exceeded` : 'All within budget'}
        </span>
      </div>
      <ul className="budget-list">
        {status.budgets.map(({ budget, applies, exceeded: over, regions }) => (
          <li key={budget.id} className={`budget-item${over ? ' budget-item--bad' : ''}`}>
            <strong>{budget.name}</strong>
            <span className="muted">
              {budget.branch_pattern ? ` on ${budget.branch_pattern}` : ' on every branch'}
            </span>
            {!applies ? (
              <span className="budget-item__state">
                does not apply to {status.branch ? <code>{status.branch}</code> : 'this commit'}
              </span>
            ) : null}
            <ul className="budget-item__regions">
              {regions.map((region) => (
                <li key={region.region}>
                  <span className="budget-item__region">{region.display_name}</span>{' '}
                  {region.used === null
                    ? `no such region at this commit (limit ${formatBytes(region.limit)})`
                    : `${formatInt(region.used)} of ${formatInt(region.limit)} B`}
                  {applies && region.exceeded_by > 0 ? (
                    <strong className="chg chg--up">
                      {' '}
                      exceeded by {formatBytes(region.exceeded_by)}
                    </strong>
                  ) : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <p className="panel__hint">
        Budgets are set in the <Link to={settingsPath}>project settings</Link>.
      </p>
    </section>
  );
}
