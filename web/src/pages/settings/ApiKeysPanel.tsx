import type { Project } from '@memtrail/contracts';
import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { ApiKeyReveal } from '../../components/ApiKeyReveal.tsx';
import { useOrganizationsApi } from '../../lib/organizations.ts';
import { useProjectContext } from '../../lib/store/projectContext.ts';
import { KeyTable } from '../../components/KeyTable.tsx';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The project's named keys: upload keys for CI, read keys for scripts and dashboards. Rotation
 * without downtime: create a key, move the CI secret, revoke the old key once unused. Regenerate
 * does it in one step and says which pipelines it breaks.
 */
export function ApiKeysPanel({ project }: { project: Project }) {
  const orgs = useOrganizationsApi();
  const { api, cache } = useProjectContext();
  const canManage = project.role !== 'viewer';
  const { data: keys, mutate } = useSWR(canManage ? ['project-keys', project.id] : null, () =>
    orgs.keys(project.id),
  );
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'upload' | 'read'>('upload');
  const [shown, setShown] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const act = async (work: () => Promise<void>) => {
    try {
      await work();
      setFailure(null);
      await mutate();
      cache.invalidate('projects');
    } catch (error) {
      setFailure(messageOf(error));
    }
  };
  async function create(event: FormEvent) {
    event.preventDefault();
    await act(async () => {
      setShown((await orgs.createKey(project.id, { name: name.trim(), scope })).api_key);
      setWarning(null);
      setName('');
    });
  }
  return (
    <section className="panel">
      <h2>API keys</h2>
      <p className="muted">
        Uploads from CI authenticate with an upload key; scripts and dashboards read with a read
        key. To rotate without downtime, create a new key, update the CI secret, then revoke the old
        key once its last use is old enough.
      </p>
      {!canManage ? (
        <code className="key-row__masked">{project.api_key_masked ?? 'No key'}</code>
      ) : (
        <>
          {shown ? <ApiKeyReveal apiKey={shown} onDone={() => setShown(null)} /> : null}
          {warning ? <div className="alert alert--warning">{warning}</div> : null}
          <form className="inline-form" onSubmit={(event) => void create(event)}>
            <label className="field">
              <span>Key name</span>
              <input
                value={name}
                maxLength={100}
                placeholder="github-actions"
                onChange={(event) => setName(event.target.value)}
              />
            </label>
            <label className="field">
              <span>Scope</span>
              <select
                aria-label="Scope"
                value={scope}
                onChange={(event) => setScope(event.target.value as 'upload' | 'read')}
              >
                <option value="upload">upload</option>
                <option value="read">read</option>
              </select>
            </label>
            <button type="submit" className="button button--primary" disabled={!name.trim()}>
              Create key
            </button>
          </form>
          <KeyTable
            keys={keys ?? []}
            onRevoke={(id) => act(() => orgs.revokeKey(project.id, id).then(() => undefined))}
          />
          {project.role === 'owner' || project.role === 'admin' ? (
            <div className="key-row">
              {confirming ? (
                <>
                  <span>
                    Every CI pipeline using the current upload keys stops uploading until its secret
                    holds the new key.
                  </span>
                  <button
                    type="button"
                    className="button button--danger-solid"
                    onClick={() =>
                      void act(async () => {
                        setConfirming(false);
                        const result = await api.regenerateApiKey(project.id);
                        setShown(result.api_key);
                        setWarning(result.warning);
                      })
                    }
                  >
                    Regenerate
                  </button>
                  <button
                    type="button"
                    className="button button--ghost"
                    onClick={() => setConfirming(false)}
                  >
                    Cancel
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="button button--ghost"
                  onClick={() => setConfirming(true)}
                >
                  Regenerate key
                </button>
              )}
            </div>
          ) : null}
        </>
      )}
      {failure ? <div className="alert alert--error">{failure}</div> : null}
    </section>
  );
}
