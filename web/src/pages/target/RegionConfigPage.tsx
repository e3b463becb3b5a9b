import {
  isPlaceholderRegion,
  regionConfigDocument,
  regionConfigProblems,
  type RegionConfigDocument,
  type RegionConfigProblem,
  type RegionKind,
  type RegionSettings,
  type SeenRegion,
} from '@memtrail/contracts';
import { useState, type ReactNode } from 'react';
import useSWR from 'swr';
import { Spinner } from '../../components/Spinner.tsx';
import { formatBytes, formatDate, hex } from '../../lib/format.ts';
import { useProjectContext } from '../../lib/store/projectContext.ts';
import { useTargetRoute } from '../../lib/targetRoute.ts';

type Field = keyof RegionSettings | 'source_root';

/** Id of the message of one field's problem, for aria-describedby. */
const problemId = (row: number, field: Field) => `region-config-${row}-${field}-problem`;

/**
 * How each memory region is shown everywhere (dashboard, commit, compare, budgets, PR
 * comments): a display name, flash or RAM, a position, a limit overriding the linker script,
 * hidden or shown, and merged into another region when it was renamed over history. Every
 * region the target's reports ever had is listed, zero-length placeholders last. Problems show
 * at the field they concern.
 */
export function RegionConfigPage() {
  const { projectId, target } = useTargetRoute();
  const { api, cache } = useProjectContext();
  const saved = useSWR(
    ['region-config', projectId, target],
    () => api.getRegionSettings(projectId, target),
    { revalidateOnFocus: false },
  );
  // Edits start from the saved document; until the first edit the saved one is shown as it is.
  const [draft, setDraft] = useState<RegionConfigDocument | null>(null);
  const config =
    draft ?? (saved.data !== undefined ? regionConfigDocument(saved.data?.region_config) : null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [showPlaceholders, setShowPlaceholders] = useState(false);

  if (!config)
    return saved.error ? (
      <div className="page">
        <div className="alert alert--error" role="alert">
          {String(saved.error)}
        </div>
      </div>
    ) : (
      <Spinner message="Loading region config..." />
    );

  const seen = saved.data?.regions ?? [];
  const seenNames = new Set(seen.map((region) => region.name));
  const configured = Object.keys(config.regions)
    .filter((name) => !seenNames.has(name))
    .map((name) => ({ name, region: undefined as SeenRegion | undefined }));
  const rows = [...seen.map((region) => ({ name: region.name, region })), ...configured];
  const placeholder = (row: (typeof rows)[number]) =>
    row.region !== undefined && isPlaceholderRegion(row.region);
  const real = rows.filter((row) => !placeholder(row));
  const placeholders = rows.filter(placeholder);
  const problems = regionConfigProblems(config);
  const problemOf = (region: string | undefined, field: Field): RegionConfigProblem | undefined =>
    problems.find((p) => p.region === region && p.field === field);
  const general = problems.filter((p) => p.field === undefined);

  const update = (name: string, patch: RegionSettings) => {
    setStatus(null);
    setDraft((edited) => {
      const current = edited ?? config;
      const merged: RegionSettings = { ...(current.regions[name] ?? {}), ...patch };
      for (const key of Object.keys(merged) as Array<keyof RegionSettings>) {
        if (merged[key] === undefined || merged[key] === '') delete merged[key];
      }
      const regions = { ...current.regions };
      if (Object.keys(merged).length) regions[name] = merged;
      else delete regions[name];
      return { ...current, regions };
    });
  };
  const setSourceRoot = (value: string) => {
    setStatus(null);
    setDraft((edited) => {
      const { source_root: _old, ...rest } = edited ?? config;
      return value ? { ...rest, source_root: value } : rest;
    });
  };

  async function save() {
    if (problems.length || !config) return;
    try {
      await api.updateRegionConfig(projectId, target, config);
      cache.invalidate('targets', projectId);
      setStatus({ ok: true, text: 'Region configuration saved' });
    } catch (error) {
      setStatus({ ok: false, text: error instanceof Error ? error.message : String(error) });
    }
  }

  const rootProblem = problemOf(undefined, 'source_root');
  const renderRow = ({ name, region }: (typeof rows)[number], index: number) => (
    <RegionRow
      key={name}
      index={index}
      name={name}
      region={region}
      settings={config.regions[name] ?? {}}
      // A region is renamed into memory that exists: placeholders are never offered.
      others={real.map((row) => row.name).filter((other) => other !== name)}
      problemOf={(field) => problemOf(name, field)}
      onChange={(patch) => update(name, patch)}
    />
  );

  return (
    <div className="page page--wide">
      <header className="page__header">
        <p className="eyebrow">Region config</p>
        <h1 className="mono-title">{target}</h1>
        <p className="page__sub">
          How each memory region is shown on every page, in budgets and in PR comments.
        </p>
      </header>
      <section className="panel">
        {rows.length === 0 ? (
          <p className="muted">Regions appear here after the first upload.</p>
        ) : (
          <div className="table-wrap">
            <table className="table table--form">
              <thead>
                <tr>
                  <th scope="col">Region</th>
                  <th scope="col">Display name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Order</th>
                  <th scope="col">Limit override (bytes)</th>
                  <th scope="col">Shown as</th>
                  <th scope="col">Visibility</th>
                </tr>
              </thead>
              <tbody>
                {real.map(renderRow)}
                {showPlaceholders
                  ? placeholders.map((row, i) => renderRow(row, real.length + i))
                  : null}
              </tbody>
            </table>
          </div>
        )}
        {placeholders.length ? (
          <button
            type="button"
            className="button--text"
            aria-pressed={showPlaceholders}
            onClick={() => setShowPlaceholders(!showPlaceholders)}
          >
            {showPlaceholders ? 'Hide' : 'Show'} {placeholders.length} zero-length placeholder
            {placeholders.length === 1 ? ' region' : ' regions'} (hidden unless shown here)
          </button>
        ) : null}

        <div className={`field${rootProblem ? ' field--invalid' : ''}`}>
          <label htmlFor="source-root">Source root</label>
          <input
            id="source-root"
            value={config.source_root ?? ''}
            placeholder="found per report, e.g. /home/ci/work/firmware"
            aria-invalid={Boolean(rootProblem)}
            aria-describedby={`source-root-hint${rootProblem ? ` ${problemId(-1, 'source_root')}` : ''}`}
            onChange={(event) => setSourceRoot(event.target.value.trim())}
          />
          <span id="source-root-hint" className="field__hint">
            The build folder stripped from source paths so they read relative to the repository.
            Left empty, the folder common to each report&apos;s paths is stripped.
          </span>
          {rootProblem ? (
            <span id={problemId(-1, 'source_root')} className="field__error">
              {rootProblem.message}
            </span>
          ) : null}
        </div>

        {general.map((problem) => (
          <div key={problem.message} className="alert alert--error" role="alert">
            {problem.message}
          </div>
        ))}
        {problems.length ? (
          <p className="field__error" role="alert">
            {problems.length === 1 ? 'One field needs' : `${problems.length} fields need`} fixing
            before the configuration can be saved.
          </p>
        ) : null}
        {status ? (
          <div
            className={`alert ${status.ok ? 'alert--success' : 'alert--error'}`}
            role={status.ok ? 'status' : 'alert'}
          >
            {status.text}
          </div>
        ) : null}
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={problems.length > 0}
            onClick={() => void save()}
          >
            Save configuration
          </button>
        </div>
      </section>
    </div>
  );
}

function RegionRow({
  index,
  name,
  region,
  settings,
  others,
  problemOf,
  onChange,
}: {
  index: number;
  name: string;
  region: SeenRegion | undefined;
  settings: RegionSettings;
  others: string[];
  problemOf(field: Field): RegionConfigProblem | undefined;
  onChange(patch: RegionSettings): void;
}) {
  /** The control's problem wiring: aria-invalid, aria-describedby and the message under it. */
  const checked = (field: Field, control: (aria: object) => ReactNode) => {
    const problem = problemOf(field);
    const aria = problem
      ? { 'aria-invalid': true, 'aria-describedby': problemId(index, field) }
      : { 'aria-invalid': false };
    return (
      <td className={problem ? 'field--invalid' : undefined}>
        {control(aria)}
        {problem ? (
          <span id={problemId(index, field)} className="field__error">
            {problem.message}
          </span>
        ) : null}
      </td>
    );
  };
  const number = (raw: string): number | undefined =>
    raw === '' ? undefined : /^\d+$/.test(raw) ? Number(raw) : (raw as unknown as number);
  const visibility = settings.hidden === undefined ? '' : settings.hidden ? 'hidden' : 'shown';

  return (
    <tr>
      <th scope="row">
        <strong className="mono">{name}</strong>
        {region ? (
          <div className="muted small">
            {hex(region.address)} · {formatBytes(region.limit_size)}
            {region.last_seen ? ` · last ${formatDate(region.last_seen)}` : ''}
          </div>
        ) : (
          <div className="muted small">not in any report</div>
        )}
      </th>
      {checked('display_name', (aria) => (
        <input
          aria-label={`${name} display name`}
          value={settings.display_name ?? ''}
          maxLength={100}
          onChange={(event) => onChange({ display_name: event.target.value || undefined })}
          {...aria}
        />
      ))}
      {checked('kind', (aria) => (
        <select
          aria-label={`${name} kind`}
          value={settings.kind ?? ''}
          onChange={(event) =>
            onChange({ kind: (event.target.value || undefined) as RegionKind | undefined })
          }
          {...aria}
        >
          <option value="">(from report)</option>
          <option value="flash">flash</option>
          <option value="ram">ram</option>
          <option value="other">other</option>
        </select>
      ))}
      {checked('order', (aria) => (
        <input
          aria-label={`${name} order`}
          inputMode="numeric"
          className="input--narrow"
          value={settings.order ?? ''}
          placeholder="auto"
          onChange={(event) => onChange({ order: number(event.target.value.trim()) })}
          {...aria}
        />
      ))}
      {checked('limit', (aria) => (
        <input
          aria-label={`${name} limit`}
          inputMode="numeric"
          value={settings.limit ?? ''}
          placeholder={region ? String(region.limit_size) : ''}
          onChange={(event) => onChange({ limit: number(event.target.value.trim()) })}
          {...aria}
        />
      ))}
      {checked('merge_into', (aria) => (
        <select
          aria-label={`${name} shown as`}
          value={settings.merge_into ?? ''}
          onChange={(event) => onChange({ merge_into: event.target.value || undefined })}
          {...aria}
        >
          <option value="">itself</option>
          {others.map((other) => (
            <option key={other} value={other}>
              {other} (renamed)
            </option>
          ))}
        </select>
      ))}
      {checked('hidden', (aria) => (
        <select
          aria-label={`${name} visibility`}
          value={visibility}
          onChange={(event) =>
            onChange({
              hidden: event.target.value === '' ? undefined : event.target.value === 'hidden',
            })
          }
          {...aria}
        >
          <option value="">hidden when unused</option>
          <option value="shown">always shown</option>
          <option value="hidden">hidden</option>
        </select>
      ))}
    </tr>
  );
}
