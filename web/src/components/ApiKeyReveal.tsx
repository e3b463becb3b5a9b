import { CodeBlock } from './CodeBlock.tsx';

/** A freshly issued API key: shown this once, with a copy button (spec §1 tutorial). */
export function ApiKeyReveal({ apiKey, onDone }: { apiKey: string; onDone(): void }) {
  return (
    <div className="key-reveal" role="status">
      <p className="key-reveal__title">Your API key</p>
      <p className="key-reveal__note">
        Copy it now and store it as a repository secret. It will not be shown again.
      </p>
      <CodeBlock code={apiKey} />
      <button type="button" className="button button--primary" onClick={onDone}>
        I have stored the key
      </button>
    </div>
  );
}
