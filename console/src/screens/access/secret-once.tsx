import { useCopy } from '../../components/use-copy';

/**
 * A secret the API shows once (a token, recovery codes): shown as text with a copy button and the
 * sentence that it will not be shown again. Kept in component state only, never in storage.
 */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone?: () => void }) {
  const { copy, said: copied } = useCopy(secret);
  return (
    <div class="secret-once panel" role="region" aria-label={label}>
      <p>
        <strong>{label}</strong>: copy it now. <span class="secret-warning">It will not be shown again.</span>
      </p>
      <pre class="secret-value" tabIndex={0}>
        {secret}
      </pre>
      <button type="button" onClick={copy}>
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
