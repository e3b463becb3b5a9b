import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LogoMark } from '../../components/Logo.tsx';
import { useAuth } from '../../lib/auth/AuthProvider.tsx';
import type { OAuthProvider } from '../../lib/auth/types.ts';
import {
  cleanAuthFields,
  EMPTY_FIELDS,
  validateAuthField,
  validateAuthForm,
  type AuthFields,
  type AuthMode,
  type FieldErrors,
  type FieldName,
} from './authForm.ts';
import { deploymentMode, oauthProviders } from '../../lib/config.ts';
import { pendingReturn } from '../../lib/returnTo.ts';
import { GithubModal } from './GithubModal.tsx';
import { PasswordStrengthMeter } from './PasswordStrengthMeter.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { SsoSignIn } from './SsoSignIn.tsx';

const HEADINGS: Record<AuthMode, { title: string; sub: string; submit: string; busy: string }> = {
  signin: {
    title: 'Welcome back',
    sub: 'Sign in to your Memtrail account',
    submit: 'Sign In',
    busy: 'Processing...',
  },
  signup: {
    title: 'Create your account',
    sub: 'Start tracking your firmware memory footprint',
    submit: 'Create Account',
    busy: 'Processing...',
  },
  forgot: {
    title: 'Reset your password',
    sub: 'Enter your email and we will send you a reset link',
    submit: 'Send Reset Link',
    busy: 'Sending...',
  },
};

const MESSAGES = {
  unexpected: 'An unexpected error occurred',
  confirmEmail: 'Check your email for the confirmation link!',
  resetSent: 'Password reset email sent! Check your inbox.',
} as const;

/**
 * The OAuth buttons to offer: both in cloud mode (spec §2); on premises only the providers the
 * gateway has a configuration for, since the others could only fail.
 */
function socialProviders(): readonly string[] {
  if (deploymentMode === 'cloud' || oauthProviders === null) return ['github', 'google'];
  return oauthProviders;
}

export function AuthPage() {
  const auth = useAuth();
  const social = socialProviders();
  const returning = pendingReturn();
  const navigate = useNavigate();
  const [mode, setMode] = useState<AuthMode>('signin');
  const [fields, setFields] = useState<AuthFields>(EMPTY_FIELDS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [githubOpen, setGithubOpen] = useState(false);

  const heading = HEADINGS[mode];
  const hasErrors = Object.values(errors).some(Boolean);

  const switchMode = (next: AuthMode) => {
    setMode(next);
    setFields(EMPTY_FIELDS);
    setErrors({});
    setError(null);
    setSuccess(null);
  };

  /** Live check of the edited field; the confirmation follows the password it must match. */
  const change = (name: FieldName, value: string) => {
    const next = { ...fields, [name]: value };
    setFields(next);
    setErrors((current) => {
      const updated: FieldErrors = {
        ...current,
        [name]: validateAuthField(mode, name, next) ?? undefined,
      };
      if (name === 'password' && mode === 'signup' && next.confirmPassword) {
        updated.confirmPassword = validateAuthField(mode, 'confirmPassword', next) ?? undefined;
      }
      return updated;
    });
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSuccess(null);
    const found = validateAuthForm(mode, fields);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const clean = cleanAuthFields(fields);
    setBusy(true);
    try {
      if (mode === 'signin') {
        const result = await auth.signIn(clean.email, clean.password);
        if (result.error) setError(result.error.message);
        else void navigate(pendingReturn() ?? '/', { replace: true });
      } else if (mode === 'signup') {
        const result = await auth.signUp(clean.email, clean.password, clean.fullName);
        if (result.error) setError(result.error.message);
        else if (result.session) void navigate(pendingReturn() ?? '/', { replace: true });
        else {
          setSuccess(MESSAGES.confirmEmail);
          setFields(EMPTY_FIELDS);
        }
      } else {
        const { error: resetError } = await auth.resetPassword(clean.email);
        if (resetError) setError(resetError.message);
        else setSuccess(MESSAGES.resetSent);
      }
    } catch (cause) {
      console.error('Auth form submission failed', cause);
      setError(MESSAGES.unexpected);
    } finally {
      setBusy(false);
    }
  }

  async function oauth(provider: OAuthProvider) {
    setGithubOpen(false);
    setError(null);
    try {
      const { error: oauthError } = await auth.signInWithOAuth(provider);
      if (oauthError) setError(oauthError.message);
    } catch (cause) {
      console.error('OAuth sign-in failed', cause);
      setError(MESSAGES.unexpected);
    }
  }

  return (
    <div className="auth">
      <div className="auth__card">
        <div className="auth__brand">
          <LogoMark size={36} />
        </div>
        <h1>{heading.title}</h1>
        <p className="auth__sub">{heading.sub}</p>
        {returning && mode === 'signin' ? (
          <p className="auth__return" role="status">
            You will go on to the page you opened once you are signed in.
          </p>
        ) : null}

        {error ? (
          <div className="alert alert--error" role="alert">
            {error}
          </div>
        ) : null}
        {success ? (
          <div className="alert alert--success" role="status">
            {success}
          </div>
        ) : null}

        <form className="auth__form" onSubmit={(event) => void submit(event)} noValidate>
          {mode === 'signup' ? (
            <Field label="Full name" name="fullName" error={errors.fullName}>
              <input
                id="fullName"
                name="fullName"
                type="text"
                autoComplete="name"
                value={fields.fullName}
                onChange={(e) => change('fullName', e.target.value)}
                aria-invalid={Boolean(errors.fullName)}
                aria-describedby={errors.fullName ? 'fullName-error' : undefined}
              />
            </Field>
          ) : null}

          <Field label="Email" name="email" error={errors.email}>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              value={fields.email}
              onChange={(e) => change('email', e.target.value)}
              aria-invalid={Boolean(errors.email)}
              aria-describedby={errors.email ? 'email-error' : undefined}
            />
          </Field>

          {mode !== 'forgot' ? (
            <Field label="Password" name="password" error={errors.password}>
              <PasswordInput
                id="password"
                autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                value={fields.password}
                onChange={(value) => change('password', value)}
                invalid={Boolean(errors.password)}
              />
            </Field>
          ) : null}

          {mode === 'signup' ? (
            <>
              <PasswordStrengthMeter password={fields.password} />
              <Field label="Confirm password" name="confirmPassword" error={errors.confirmPassword}>
                <PasswordInput
                  id="confirmPassword"
                  autoComplete="new-password"
                  value={fields.confirmPassword}
                  onChange={(value) => change('confirmPassword', value)}
                  invalid={Boolean(errors.confirmPassword)}
                />
              </Field>
            </>
          ) : null}

          {mode === 'signin' ? (
            <button
              type="button"
              className="link auth__forgot"
              onClick={() => switchMode('forgot')}
            >
              Forgot your password?
            </button>
          ) : null}

          <button
            type="submit"
            className="button button--primary button--block"
            disabled={busy || hasErrors}
          >
            {busy ? heading.busy : heading.submit}
          </button>
        </form>

        {mode === 'signin' ? (
          <>
            <div className="auth__or">
              <span>or</span>
            </div>
            <div className="auth__social">
              {social.includes('github') ? (
                <button
                  type="button"
                  className="button button--social"
                  onClick={() => setGithubOpen(true)}
                >
                  <GithubIcon /> Continue with GitHub
                </button>
              ) : null}
              {social.includes('google') ? (
                <button
                  type="button"
                  className="button button--social"
                  onClick={() => void oauth('google')}
                >
                  <GoogleIcon /> Continue with Google
                </button>
              ) : null}
              <SsoSignIn />
            </div>
          </>
        ) : null}

        <div className="auth__switch">
          {mode === 'signin' ? (
            <>
              Don’t have an account?{' '}
              <button type="button" className="link" onClick={() => switchMode('signup')}>
                Sign up
              </button>
            </>
          ) : mode === 'signup' ? (
            <>
              Already have an account?{' '}
              <button type="button" className="link" onClick={() => switchMode('signin')}>
                Sign in
              </button>
            </>
          ) : (
            <button type="button" className="link" onClick={() => switchMode('signin')}>
              Back to Sign In
            </button>
          )}
        </div>
      </div>
      {githubOpen ? (
        <GithubModal
          onContinue={() => void oauth('github')}
          onCancel={() => setGithubOpen(false)}
        />
      ) : null}
    </div>
  );
}

function Field({
  label,
  name,
  error,
  children,
}: {
  label: string;
  name: FieldName;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={name}>{label}</label>
      {children}
      {error ? (
        <p className="field__error" id={`${name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function GithubIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
      <path d="M8 0C3.58 0 0 3.58 0 8c0 3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z" />
    </svg>
  );
}

function GoogleIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}
