import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { validateConfirmPassword, validatePassword } from '@memtrail/contracts';
import { LogoMark } from '../../components/Logo.tsx';
import { useAuth } from '../../lib/auth/AuthProvider.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { PasswordStrengthMeter } from './PasswordStrengthMeter.tsx';

interface FieldErrors {
  current?: string;
  password?: string;
  confirm?: string;
}

/**
 * Where the mailed reset link lands (`/reset-password?token=`), and where a signed-in user sets
 * a new password, giving the current one. The same password rules as sign-up apply.
 */
export function ResetPasswordPage() {
  const { updatePassword } = useAuth();
  const navigate = useNavigate();
  // Without a mailed link's token, the current password proves it is the account's owner.
  const askCurrent = !new URLSearchParams(useLocation().search).get('token');
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const check = (
    nextPassword: string,
    nextConfirm: string,
    touchedConfirm: boolean,
    nextCurrent?: string,
  ): FieldErrors => ({
    current:
      askCurrent && nextCurrent !== undefined
        ? (validatePassword(nextCurrent, 'signin') ?? undefined)
        : undefined,
    password: validatePassword(nextPassword, 'signup') ?? undefined,
    confirm: touchedConfirm
      ? (validateConfirmPassword(nextPassword, nextConfirm) ?? undefined)
      : undefined,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = check(password, confirm, true, current);
    setErrors(found);
    if (found.current || found.password || found.confirm) return;
    setBusy(true);
    setError(null);
    try {
      const { error: updateError } = await updatePassword(
        password,
        askCurrent ? current : undefined,
      );
      if (updateError) setError(updateError.message);
      else void navigate('/', { replace: true });
    } catch (cause) {
      console.error('Password update failed', cause);
      setError('An unexpected error occurred');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auth">
      <div className="auth__card">
        <div className="auth__brand">
          <LogoMark size={36} />
        </div>
        <h1>Choose a new password</h1>
        {error ? (
          <div className="alert alert--error" role="alert">
            {error}
          </div>
        ) : null}
        <form className="auth__form" onSubmit={(event) => void submit(event)} noValidate>
          {askCurrent ? (
            <div className={`field${errors.current ? ' field--invalid' : ''}`}>
              <label htmlFor="currentPassword">Current password</label>
              <PasswordInput
                id="currentPassword"
                autoComplete="current-password"
                value={current}
                onChange={(value) => {
                  setCurrent(value);
                  setErrors({ ...errors, current: undefined });
                }}
                invalid={Boolean(errors.current)}
              />
              {errors.current ? (
                <p className="field__error" id="currentPassword-error">
                  {errors.current}
                </p>
              ) : null}
            </div>
          ) : null}
          <div className={`field${errors.password ? ' field--invalid' : ''}`}>
            <label htmlFor="password">New password</label>
            <PasswordInput
              id="password"
              autoComplete="new-password"
              value={password}
              onChange={(value) => {
                setPassword(value);
                setErrors(check(value, confirm, Boolean(confirm)));
              }}
              invalid={Boolean(errors.password)}
            />
            {errors.password ? (
              <p className="field__error" id="password-error">
                {errors.password}
              </p>
            ) : null}
          </div>
          <PasswordStrengthMeter password={password} />
          <div className={`field${errors.confirm ? ' field--invalid' : ''}`}>
            <label htmlFor="confirmPassword">Confirm password</label>
            <PasswordInput
              id="confirmPassword"
              autoComplete="new-password"
              value={confirm}
              onChange={(value) => {
                setConfirm(value);
                setErrors(check(password, value, true));
              }}
              invalid={Boolean(errors.confirm)}
            />
            {errors.confirm ? (
              <p className="field__error" id="confirmPassword-error">
                {errors.confirm}
              </p>
            ) : null}
          </div>
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={busy || Boolean(errors.password || errors.confirm)}
          >
            {busy ? 'Processing...' : 'Update Password'}
          </button>
        </form>
      </div>
    </div>
  );
}
