import {
  GITHUB_REPOSITORY_MESSAGE,
  parseGithubRepository,
  type PublicAccessData,
  type UpdatePublicAccessRequest,
} from '@memtrail/contracts';
import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { CodeBlock } from '../../components/CodeBlock.tsx';
import { useProjectContext } from '../../lib/store/projectContext.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Public access (docs/public-projects.md): the public switch with the project's public address
 * and badges, the linked GitHub repository, and uploads without a key from it. Admins and owners
 * change it; other members see it.
 */
export function PublicAccessPanel({
  id,
  targets,
  canChange,
}: {
  id: string;
  targets: string[];
  canChange: boolean;
}) {
  const { api } = useProjectContext();
  const { data, error, mutate } = useSWR(['public-access', id], () => api.getPublicAccess(id), {
    revalidateOnFocus: false,
  });
  // Kept here: a saved change remounts the form with the settings now stored.
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async (change: UpdatePublicAccessRequest) => {
    try {
      await mutate(await api.updatePublicAccess(id, change), { revalidate: false });
      setStatus({ ok: true, text: 'Saved' });
    } catch (cause) {
      setStatus({ ok: false, text: messageOf(cause) });
    }
  };
  return (
    <section className="panel" aria-labelledby="public-access">
      <h2 id="public-access">Public access</h2>
      {data ? (
        <PublicAccessForm
          key={JSON.stringify(data.settings)}
          data={data}
          targets={targets}
          canChange={canChange}
          save={save}
        />
      ) : error ? (
        <div className="alert alert--error">{messageOf(error)}</div>
      ) : (
        <p className="muted">Loading…</p>
      )}
      {status ? (
        <div className={`alert ${status.ok ? 'alert--success' : 'alert--error'}`}>
          {status.text}
        </div>
      ) : null}
    </section>
  );
}

function PublicAccessForm({
  data,
  targets,
  canChange,
  save,
}: {
  data: PublicAccessData;
  targets: string[];
  canChange: boolean;
  /** Stores the change; reports success or failure itself. */
  save(change: UpdatePublicAccessRequest): Promise<void>;
}) {
  const { settings } = data;
  const [isPublic, setPublic] = useState(settings.public);
  const [repository, setRepository] = useState(settings.repository ?? '');
  const [tokenless, setTokenless] = useState(settings.tokenless_uploads);
  const [oidc, setOidc] = useState(settings.oidc_uploads);
  const linked = repository.trim() !== '';
  const repositoryError =
    linked && !parseGithubRepository(repository) ? GITHUB_REPOSITORY_MESSAGE : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (repositoryError) return;
    await save({
      public: isPublic,
      repository: linked ? repository.trim() : null,
      tokenless_uploads: linked && tokenless,
      oidc_uploads: linked && oidc,
    });
  }

  const target = targets[0];
  const badge = target ? `${data.badge_base_url}/${encodeURIComponent(target)}.svg` : null;
  // The preview loads from this page's origin: the public address (CORE_URL) may name another
  // host than the one this page was opened by, and the Content-Security-Policy allows only 'self'.
  const preview = badge ? new URL(badge).pathname : null;
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset className="form__fieldset" disabled={!canChange}>
        <label className="toggle">
          <input
            type="checkbox"
            checked={isPublic}
            onChange={(event) => setPublic(event.target.checked)}
          />
          Public: anyone can read the dashboards, commits, comparisons and symbols, without signing
          in (never the settings or keys)
        </label>
        <label className={`field${repositoryError ? ' field--invalid' : ''}`}>
          <span>GitHub repository</span>
          <input
            value={repository}
            placeholder="owner/name or https://github.com/owner/name"
            onChange={(event) => setRepository(event.target.value)}
          />
          {repositoryError ? <span className="field__error">{repositoryError}</span> : null}
        </label>
        <label className="toggle">
          <input
            type="checkbox"
            checked={linked && tokenless}
            disabled={!linked}
            onChange={(event) => setTokenless(event.target.checked)}
          />
          Tokenless uploads from its pull requests, forks and Dependabot included (MemBrowse CLI;
          public repositories only; they only add reports for a pull request&apos;s head commit)
        </label>
        <label className="toggle">
          <input
            type="checkbox"
            checked={linked && oidc}
            disabled={!linked}
            onChange={(event) => setOidc(event.target.checked)}
          />
          GitHub Actions OIDC tokens of its workflows (<code>id-token: write</code>)
        </label>
      </fieldset>
      {settings.oidc_uploads ? (
        <CodeBlock label="OIDC token audience" code={data.oidc_audience} />
      ) : null}
      {settings.public ? (
        <>
          <p>
            Public address: <a href={data.public_url}>{data.public_url}</a>
          </p>
          {badge && preview && target ? (
            <>
              <img src={preview} alt={`Memory badge of ${target}`} />
              <CodeBlock
                label="Badge (Markdown; add ?region=NAME to choose the region)"
                code={`[![memory](${badge})](${data.public_url}/target/${encodeURIComponent(target)})`}
              />
            </>
          ) : null}
        </>
      ) : null}
      {canChange ? (
        <div className="form__actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={Boolean(repositoryError)}
          >
            Save public access
          </button>
        </div>
      ) : (
        <p className="muted">Only admins and owners change public access.</p>
      )}
    </form>
  );
}
