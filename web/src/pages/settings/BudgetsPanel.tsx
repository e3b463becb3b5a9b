import {
  isPlaceholderRegion,
  RegionPlan,
  validateBudgetInput,
  type Budget,
  type BudgetInput,
  type RegionConfigData,
} from '@memtrail/contracts';
import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { formatBytes } from '../../lib/format.ts';
import { useProjectContext } from '../../lib/store/projectContext.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Memory budgets of one target at a time: list, create, edit, delete. */
export function BudgetsPanel({ projectId, targets }: { projectId: string; targets: string[] }) {
  const { api } = useProjectContext();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const target = chosen ?? targets[0];
  const {
    data: budgets,
    error,
    mutate,
  } = useSWR(
    target ? ['budgets', projectId, target] : null,
    () => api.getBudgets(projectId, target!),
    { revalidateOnFocus: false },
  );
  const [editing, setEditing] = useState<Budget | 'new' | null>(null);
  const regions = useSWR(
    target ? ['region-config', projectId, target] : null,
    () => api.getRegionSettings(projectId, target!),
    { revalidateOnFocus: false },
  );

  return (
    <section className="panel">
      <div className="panel__head">
        <h2>Budgets</h2>
        {targets.length > 0 ? (
          <label className="select">
            <span>Target</span>
            <select value={target} onChange={(event) => setChosen(event.target.value)}>
              {targets.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      {!target ? (
        <p className="muted">Budgets are set per target; targets appear with the first upload.</p>
      ) : (
        <>
          <p className="muted">
            Uploads that exceed a budget are flagged in the upload response and pull-request
            comments.
          </p>
          {error ? <div className="alert alert--error">{messageOf(error)}</div> : null}
          <ul className="budgets">
            {(budgets ?? []).map((budget) => (
              <li key={budget.id}>
                <div>
                  <strong>{budget.name}</strong>
                  <span className="muted">
                    {' '}
                    {budget.branch_pattern ? `on ${budget.branch_pattern}` : 'all branches'}
                  </span>
                  <div className="budgets__limits">
                    {Object.entries(budget.limits).map(([region, bytes]) => (
                      <span key={region} className="chip">
                        {region} ≤ {formatBytes(bytes)}
                      </span>
                    ))}
                  </div>
                </div>
                <div className="budgets__actions">
                  <button
                    type="button"
                    className="button button--ghost"
                    onClick={() => setEditing(budget)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button button--ghost button--danger"
                    onClick={() =>
                      void api.deleteBudget(projectId, target, budget.id).then(() => mutate())
                    }
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
            {budgets?.length === 0 ? <li className="muted">No budgets for {target}.</li> : null}
          </ul>
          {editing ? (
            <BudgetForm
              regions={budgetRegions(regions.data)}
              initial={editing === 'new' ? null : editing}
              onCancel={() => setEditing(null)}
              onSave={async (input) => {
                if (editing === 'new') await api.createBudget(projectId, target, input);
                else await api.updateBudget(projectId, target, editing.id, input);
                setEditing(null);
                await mutate();
              }}
            />
          ) : (
            <button
              type="button"
              className="button button--primary"
              onClick={() => setEditing('new')}
            >
              Add budget
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** A region a budget may name: its name, how it is shown, its size in the latest report. */
interface BudgetRegion {
  name: string;
  display_name: string;
  limit_size: number;
}

/**
 * The target's regions as budgets name them (regions merged by the region config under the
 * merged name), placeholders left out, in display order.
 */
function budgetRegions(data: RegionConfigData | undefined): BudgetRegion[] {
  const plan = RegionPlan.of(data?.region_config);
  const regions = new Map<string, BudgetRegion & { address: number }>();
  for (const region of data?.regions ?? []) {
    const name = plan.canonical(region.name);
    if (isPlaceholderRegion(region) || regions.has(name)) continue;
    regions.set(name, {
      name,
      display_name: plan.displayName(name),
      limit_size: plan.limit(name, region.limit_size),
      address: region.address,
    });
  }
  return plan.sort([...regions.values()]);
}

/** Limits are typed as `REGION=bytes` lines, with k/K and m/M as KiB and MiB. */
function parseLimits(text: string): Record<string, number> | string {
  const limits: Record<string, number> = {};
  for (const line of text
    .split('\n')
    .map((raw) => raw.trim())
    .filter(Boolean)) {
    const match = /^([^=\s]+)\s*=\s*(\d+(?:\.\d+)?)\s*([kKmM]?)i?B?$/.exec(line);
    if (!match) return `Cannot read "${line}": write REGION=bytes, e.g. FLASH=256K`;
    const scale = /k/i.test(match[3]!) ? 1024 : /m/i.test(match[3]!) ? 1024 * 1024 : 1;
    limits[match[1]!] = Math.round(Number(match[2]) * scale);
  }
  return limits;
}

function BudgetForm({
  regions,
  initial,
  onCancel,
  onSave,
}: {
  /** The target's regions: the example and the hint name them, not made-up ones. */
  regions: BudgetRegion[];
  initial: Budget | null;
  onCancel(): void;
  onSave(input: BudgetInput): Promise<void>;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [pattern, setPattern] = useState(initial?.branch_pattern ?? '');
  const [limits, setLimits] = useState(
    Object.entries(initial?.limits ?? {})
      .map(([region, bytes]) => `${region}=${bytes}`)
      .join('\n'),
  );
  const [failure, setFailure] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseLimits(limits);
    if (typeof parsed === 'string') return setFailure(parsed);
    const input: BudgetInput = {
      name: name.trim(),
      branch_pattern: pattern.trim() || null,
      limits: parsed,
    };
    const problem = validateBudgetInput(input);
    if (problem) return setFailure(problem);
    try {
      await onSave(input);
    } catch (error) {
      setFailure(messageOf(error));
    }
  }
  return (
    <form className="form form--boxed" onSubmit={(event) => void submit(event)} noValidate>
      <div className="form__row">
        <label className="field">
          <span>Name</span>
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Release budget"
          />
        </label>
        <label className="field">
          <span>Branches (glob, empty = all)</span>
          <input
            value={pattern}
            onChange={(event) => setPattern(event.target.value)}
            placeholder="main"
          />
        </label>
      </div>
      <label className="field">
        <span>Limits, one region per line</span>
        <textarea
          className="mono"
          rows={3}
          value={limits}
          onChange={(event) => setLimits(event.target.value)}
          placeholder={regions
            .slice(0, 2)
            .map((r) => `${r.name}=${Math.max(1, Math.floor(r.limit_size / 1024 / 2))}K`)
            .join('\n')}
          aria-describedby="budget-regions"
        />
        <span id="budget-regions" className="field__hint">
          {regions.length
            ? `Regions of this target: ${regions
                .map((r) => (r.display_name === r.name ? r.name : `${r.name} (${r.display_name})`))
                .join(', ')}`
            : 'Regions appear with the first upload.'}
        </span>
      </label>
      {failure ? <div className="alert alert--error">{failure}</div> : null}
      <div className="form__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--primary">
          Save budget
        </button>
      </div>
    </form>
  );
}
