import { useEffect, useRef } from 'react';
import { CodeBlock } from './CodeBlock.tsx';

/**
 * A freshly issued API key: shown this once, with a copy button (spec §1 tutorial). It takes
 * the focus when it appears, so a keyboard user lands on it rather than on the page body.
 */
export function ApiKeyReveal({ apiKey, onDone }: { apiKey: string; onDone(): void }) {
  const title = useRef<HTMLParagraphElement>(null);
  useEffect(() => title.current?.focus(), []);
  return (
    <div className="key-reveal" role="status">
      <p className="key-reveal__title" ref={title} tabIndex={-1}>
        Your API key
      </p>
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
