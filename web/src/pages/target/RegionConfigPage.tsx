import {
  regionConfigDocument,
  validateRegionConfig,
  type RegionConfigDocument,
  type RegionKind,
  type RegionSettings,
} from '@memtrail/contracts';
import { useState } from 'react';
import useSWR from 'swr';
import { Spinner } from '../../components/Spinner.tsx';
import type { CommitReportData } from '../../lib/api/queryTypes.ts';
import { useHeads, useTargetResource } from '../../lib/data.ts';
import { formatBytes } from '../../lib/format.ts';
import { useProjectContext } from '../../lib/store/ProjectProvider.tsx';
import { useTargetRoute } from '../../lib/targetRoute.ts';

/** Display settings per memory region: name, kind, limit override, hidden (contracts schema). */
export function RegionConfigPage() {
  const { projectId, target } = useTargetRoute();
  const { api, store } = useProjectContext();
  const saved = useSWR(
    ['region-config', projectId, target],
    () => api.getRegionConfig(projectId, target),
    {
      revalidateOnFocus: false,
    },
  );
  const heads = useHeads(projectId, target);
  const sha = heads.data?.[0]?.commit_sha;
  const report = useTargetResource<CommitReportData>(
    projectId,
    target,
    sha ? `commit/${sha}` : null,
  );
  // Edits start from the saved document; until the first edit the saved one is shown as it is.
  const [draft, setDraft] = useState<RegionConfigDocument | null>(null);
  const config = draft ?? (saved.data !== undefined ? regionConfigDocument(saved.data) : null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  if (!config)
    return saved.error ? (
      <div className="page">
        <div className="alert alert--error">{String(saved.error)}</div>
      </div>
    ) : (
      <Spinner message="Loading region config..." />
    );

  const reported = report.data?.regions ?? [];
  const names = [
    ...new Set([...reported.map((region) => region.name), ...Object.keys(config.regions)]),
  ];
  const problem = validateRegionConfig(config);

  const update = (name: string, patch: RegionSettings) =>
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

  async function save() {
    if (problem || !config) return;
    try {
      await api.updateRegionConfig(projectId, target, config);
      store.invalidate('targets', projectId);
      setStatus({ ok: true, text: 'Region configuration saved' });
    } catch (error) {
      setStatus({ ok: false, text: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <div className="page">
      <header className="page__header">
        <p className="eyebrow">Region config</p>
        <h1 className="mono-title">{target}</h1>
        <p className="page__sub">
          How each memory region is shown: a friendly name, whether it is flash or RAM, a limit that
          overrides the linker script, or hidden from charts.
        </p>
      </header>
      <section className="panel">
        {names.length === 0 ? (
          <p className="muted">Regions appear here after the first upload.</p>
        ) : (
          <div className="table-wrap">
            <table className="table table--form">
              <thead>
                <tr>
                  <th>Region</th>
                  <th>Display name</th>
                  <th>Kind</th>
                  <th>Limit override (bytes)</th>
                  <th>Hidden</th>
                </tr>
              </thead>
              <tbody>
                {names.map((name) => {
                  const settings = config.regions[name] ?? {};
                  const fromReport = reported.find((region) => region.name === name);
                  return (
                    <tr key={name}>
                      <td>
                        <strong className="mono">{name}</strong>
                        {fromReport ? (
                          <div className="muted small">
                            linker limit {formatBytes(fromReport.limit_size)}
                          </div>
                        ) : null}
                      </td>
                      <td>
                        <input
                          aria-label={`${name} display name`}
                          value={settings.display_name ?? ''}
                          maxLength={100}
                          onChange={(event) =>
                            update(name, { display_name: event.target.value || undefined })
                          }
                        />
                      </td>
                      <td>
                        <select
                          aria-label={`${name} kind`}
                          value={settings.kind ?? ''}
                          onChange={(event) =>
                            update(name, {
                              kind: (event.target.value || undefined) as RegionKind | undefined,
                            })
                          }
                        >
                          <option value="">(from report)</option>
                          <option value="flash">flash</option>
                          <option value="ram">ram</option>
                          <option value="other">other</option>
                        </select>
                      </td>
                      <td>
                        <input
                          aria-label={`${name} limit`}
                          inputMode="numeric"
                          value={settings.limit ?? ''}
                          placeholder={fromReport ? String(fromReport.limit_size) : ''}
                          onChange={(event) => {
                            const raw = event.target.value.trim();
                            update(name, {
                              limit:
                                raw === ''
                                  ? undefined
                                  : /^\d+$/.test(raw)
                                    ? Number(raw)
                                    : (raw as unknown as number),
                            });
                          }}
                        />
                      </td>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`${name} hidden`}
                          checked={settings.hidden ?? false}
                          onChange={(event) =>
                            update(name, { hidden: event.target.checked || undefined })
                          }
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {problem ? <div className="alert alert--error">{problem}</div> : null}
        {status ? (
          <div className={`alert ${status.ok ? 'alert--success' : 'alert--error'}`}>
            {status.text}
          </div>
        ) : null}
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={Boolean(problem)}
            onClick={() => void save()}
          >
            Save configuration
          </button>
        </div>
      </section>
    </div>
  );
}
