import { normalizeEmail, validateEmail } from '@memtrail/contracts';
import { useState, type FormEvent } from 'react';
import { coreUrl } from '../../lib/config.ts';

/**
 * Sign-in through the organisation's identity provider: the address picks the organisation
 * (by its domain); the provider sends the browser back to the site root with a one-time code.
 */
export function SsoSignIn() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const problem = email ? validateEmail(normalizeEmail(email)) : null;
  function go(event: FormEvent) {
    event.preventDefault();
    if (!email || problem) return;
    window.location.assign(
      `${coreUrl}/auth/sso?email=${encodeURIComponent(normalizeEmail(email))}`,
    );
  }
  if (!open) {
    return (
      <button type="button" className="button button--social" onClick={() => setOpen(true)}>
        Sign in with SSO
      </button>
    );
  }
  return (
    <form className="form auth__sso" onSubmit={go} noValidate>
      <label className={`field${problem ? ' field--invalid' : ''}`}>
        <span>Work email</span>
        <input
          type="email"
          value={email}
          autoFocus
          onChange={(event) => setEmail(event.target.value)}
        />
        {problem ? <span className="field__error">{problem}</span> : null}
      </label>
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={!email || Boolean(problem)}
      >
        Continue with SSO
      </button>
    </form>
  );
}
