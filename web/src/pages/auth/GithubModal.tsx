import { useEffect, useState } from 'react';

const GITHUB_LOGOUT_URL = 'https://github.com/logout';

/**
 * GitHub sign-in choice. GitHub reuses the account signed in to github.com, so signing in with
 * another one means logging out there first, in a new tab, then continuing here.
 */
export function GithubModal({ onContinue, onCancel }: { onContinue(): void; onCancel(): void }) {
  const [switching, setSwitching] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onCancel();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);

  const switchAccount = () => {
    window.open(GITHUB_LOGOUT_URL, '_blank', 'noopener,noreferrer');
    setSwitching(true);
  };

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onCancel()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="github-modal-title">
        <h2 id="github-modal-title">Sign in with GitHub</h2>
        {switching ? (
          <>
            <p>A GitHub tab has opened. To use a different account:</p>
            <ol className="modal__steps">
              <li>In the new tab, sign out of GitHub.</li>
              <li>Close that tab and come back here.</li>
              <li>Click “Continue to GitHub Sign In” and sign in with the account you want.</li>
            </ol>
            <div className="modal__actions">
              <button type="button" className="button button--primary" onClick={onContinue}>
                Continue to GitHub Sign In
              </button>
              <button type="button" className="button button--ghost" onClick={onCancel}>
                Cancel
              </button>
            </div>
          </>
        ) : (
          <>
            <p>Which GitHub account do you want to use?</p>
            <div className="modal__choices">
              <button type="button" className="button button--primary" onClick={onContinue}>
                Continue with current GitHub account
              </button>
              <button type="button" className="button button--ghost" onClick={switchAccount}>
                Sign in with a different GitHub account
              </button>
            </div>
            <div className="modal__actions">
              <button type="button" className="button button--text" onClick={onCancel}>
                Cancel
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
