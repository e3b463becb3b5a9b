import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { validateConfirmPassword, validatePassword } from '@memtrail/contracts';
import { LogoMark } from '../../components/Logo.tsx';
import { useAuth } from '../../lib/auth/AuthProvider.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { PasswordStrengthMeter } from './PasswordStrengthMeter.tsx';

/**
 * Where the mailed reset link lands (`/reset-password?token=`), and where a signed-in user sets
 * a new password. The same password rules as sign-up apply.
 */
export function ResetPasswordPage() {
  const { updatePassword } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const check = (nextPassword: string, nextConfirm: string, touchedConfirm: boolean) => ({
    password: validatePassword(nextPassword, 'signup') ?? undefined,
    confirm: touchedConfirm
      ? (validateConfirmPassword(nextPassword, nextConfirm) ?? undefined)
      : undefined,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = check(password, confirm, true);
    setErrors(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    setError(null);
    try {
      const { error: updateError } = await updatePassword(password);
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
