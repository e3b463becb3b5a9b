import { useState } from 'react';

/** Command or config snippet with a copy button. */
export function CodeBlock({ code, label }: { code: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void navigator.clipboard?.writeText(code).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      () => setCopied(false),
    );
  return (
    <div className="code-block">
      {label ? <div className="code-block__label">{label}</div> : null}
      <pre>
        <code>{code}</code>
      </pre>
      <button type="button" className="code-block__copy" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
