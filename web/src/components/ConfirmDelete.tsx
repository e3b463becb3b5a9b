import { useState } from 'react';
import { Modal } from './Modal.tsx';

/** Deleting asks for the project name, since it removes every report of every target. */
export function ConfirmDelete({
  name,
  onCancel,
  onConfirm,
}: {
  name: string;
  onCancel(): void;
  onConfirm(): Promise<unknown>;
}) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  }
  return (
    <Modal title={`Delete ${name}?`} onClose={onCancel}>
      <p>
        This permanently deletes the project, its API key and every uploaded report. Type the
        project name to confirm.
      </p>
      <label className="field">
        <span>Project name</span>
        <input value={typed} onChange={(event) => setTyped(event.target.value)} autoFocus />
      </label>
      {failure ? <div className="alert alert--error">{failure}</div> : null}
      <div className="form__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger-solid"
          disabled={typed !== name || busy}
          onClick={() => void confirm()}
        >
          {busy ? 'Processing...' : 'Delete project'}
        </button>
      </div>
    </Modal>
  );
}
