import type { InvitationPreview } from '@memtrail/contracts';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useSWRConfig } from 'swr';
import { useAuth } from '../lib/auth/AuthProvider.tsx';
import { coreUrl } from '../lib/config.ts';
import { useProjects } from '../lib/data.ts';
import { chooseOrganization, useOrganizationsApi } from '../lib/organizations.ts';
import { paths } from '../lib/routes.ts';
import { STORAGE_KEYS } from '../lib/storageKeys.ts';

/** What the link offers, readable before signing in (the token in the link is the secret). */
function usePreview(token: string) {
  const [state, setState] = useState<{ preview?: InvitationPreview; error?: string }>({});
  useEffect(() => {
    let live = true;
    void fetch(`${coreUrl}/api/invitations/${encodeURIComponent(token)}`)
      .then(async (response) => {
        const body = (await response.json()) as { data?: InvitationPreview; error?: string };
        if (!live) return;
        setState(
          response.ok && body.data
            ? { preview: body.data }
            : { error: body.error ?? 'This invitation link is not valid' },
        );
      })
      .catch((error: unknown) => live && setState({ error: String(error) }));
    return () => {
      live = false;
    };
  }, [token]);
  return state;
}

function Offer({ preview }: { preview: InvitationPreview }) {
  return (
    <p>
      You are invited to join{' '}
      <strong>
        {preview.project_name
          ? `${preview.project_name} (${preview.organization_name})`
          : preview.organization_name}
      </strong>{' '}
      as <span className="tag">{preview.role}</span>. The invitation is for{' '}
      <strong>{preview.email}</strong>.
    </p>
  );
}

/** `/invitations/{token}` signed out: sign in or sign up first, then come back to accept. */
export function InvitationPage() {
  const { token = '' } = useParams();
  const { user } = useAuth();
  const navigate = useNavigate();
  const { preview, error } = usePreview(token);
  if (user) return <AcceptInvitation token={token} preview={preview} error={error} />;
  const proceed = () => {
    sessionStorage.setItem(STORAGE_KEYS.pendingInvitation, token);
    void navigate('/auth');
  };
  return (
    <div className="page page--narrow">
      <h1>Invitation</h1>
      {error ? <div className="alert alert--error">{error}</div> : null}
      {preview ? (
        <>
          <Offer preview={preview} />
          <p>Sign in, or create an account, with that address to accept.</p>
          <button type="button" className="button button--primary" onClick={proceed}>
            Sign in or sign up to accept
          </button>
        </>
      ) : null}
    </div>
  );
}

function AcceptInvitation({
  token,
  preview,
  error,
}: {
  token: string;
  preview?: InvitationPreview;
  error?: string;
}) {
  const orgs = useOrganizationsApi();
  const projects = useProjects();
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  // Back on the link: the home page must not send the user here again.
  useEffect(() => sessionStorage.removeItem(STORAGE_KEYS.pendingInvitation), []);
  async function accept() {
    try {
      const joined = await orgs.acceptInvitation(token);
      await Promise.all([projects.refresh(), mutate('organizations')]);
      chooseOrganization(joined.organization_id);
      void navigate(joined.project_id ? paths.settings(joined.project_id) : paths.projects());
    } catch (cause) {
      setFailure(cause instanceof Error ? cause.message : String(cause));
    }
  }
  return (
    <div className="page page--narrow">
      <h1>Invitation</h1>
      {error ? <div className="alert alert--error">{error}</div> : null}
      {preview ? (
        <>
          <Offer preview={preview} />
          <button type="button" className="button button--primary" onClick={() => void accept()}>
            Accept invitation
          </button>
        </>
      ) : null}
      {failure ? <div className="alert alert--error">{failure}</div> : null}
    </div>
  );
}

/** After signing in from an invitation link, go back to it to accept (it then forgets it). */
export function PendingInvitation() {
  const token = sessionStorage.getItem(STORAGE_KEYS.pendingInvitation);
  return token ? <Navigate to={paths.invitation(token)} replace /> : null;
}
