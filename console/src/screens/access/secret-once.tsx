import { useState } from 'preact/hooks';

/**
 * A secret the API shows once (a token, recovery codes): shown as text with a copy button and the
 * sentence that it will not be shown again. Kept in component state only, never in storage.
 */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone?: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied.');
    } catch {
      setCopied('The browser refused to copy: select the text and copy it yourself.');
    }
  };
  return (
    <div class="secret-once panel" role="region" aria-label={label}>
      <p>
        <strong>{label}</strong>: copy it now. <span class="secret-warning">It will not be shown again.</span>
      </p>
      <pre class="secret-value" tabIndex={0}>
        {secret}
      </pre>
      <button type="button" onClick={() => void copy()}>
        Copy
      </button>{' '}
      {onDone ? (
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      ) : null}
      <span role="status" class="muted">
        {copied ?? ''}
      </span>
    </div>
  );
}
