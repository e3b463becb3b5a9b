import { passwordStrength } from '@memtrail/contracts';

const LABELS = { weak: 'Weak', medium: 'Medium', strong: 'Strong' } as const;

/** Six-step strength bar with the hints for rules not met yet (spec §5 scoring). */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { score, level, feedback } = passwordStrength(password);
  return (
    <div className={`strength strength--${level}`} data-score={score} aria-live="polite">
      <div className="strength__bar" aria-hidden="true">
        {Array.from({ length: 6 }, (_, i) => (
          <span key={i} className={i < score ? 'strength__step--on' : undefined} />
        ))}
      </div>
      <div className="strength__label">
        Password strength: <strong>{LABELS[level]}</strong>
      </div>
      {feedback.length > 0 ? (
        <ul className="strength__hints">
          {feedback.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
