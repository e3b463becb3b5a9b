import { useState } from 'react';
import { useProjectContext } from '../../lib/store/projectContext.ts';

/** CSV and JSON downloads of a report or diff (the export needs the bearer token, so no href). */
export function ExportLinks({
  projectId,
  target,
  resource,
}: {
  projectId: string;
  target: string;
  /** Path below the target, e.g. `commit/<sha>/export`; may carry a query already. */
  resource: string;
}) {
  const { api } = useProjectContext();
  const [failure, setFailure] = useState<string | null>(null);
  async function save(format: 'csv' | 'json') {
    setFailure(null);
    const joiner = resource.includes('?') ? '&' : '?';
    const path = `/api/${encodeURIComponent(projectId)}/${encodeURIComponent(target)}/${resource}${joiner}format=${format}`;
    try {
      const blob = await api.api.download(path);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `${resource.split('?')[0]!.replace(/\//g, '-')}.${format}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  }
  return (
    <div className="export">
      <button type="button" className="button button--ghost" onClick={() => void save('csv')}>
        Export CSV
      </button>
      <button type="button" className="button button--ghost" onClick={() => void save('json')}>
        Export JSON
      </button>
      {failure ? <span className="field__error">{failure}</span> : null}
    </div>
  );
}
