/** Loading indicator with an optional message (spec §2), used as the Suspense fallback. */
export function Spinner({ message }: { message?: string }) {
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner__wheel" aria-hidden="true" />
      {message ? <span className="spinner__message">{message}</span> : null}
    </div>
  );
}
