import { useCopy } from '../../components/use-copy';

/** A webhook's signing secret, which the API answers once: shown here once, with a copy button. */
export function SigningSecret({ secret }: { secret: string }) {
  const { copy, said: copied } = useCopy(secret);
  return (
    <div class="panel secret" role="region" aria-label="Signing secret">
      <p>
        <strong>The webhook's signing secret.</strong> It is shown this once: keep it where your receiver can check the{' '}
        <code>X-Webhook-Signature</code> header with it. Leaving this page forgets it.
      </p>
      <code class="secret-value">{secret}</code>
      <div class="actions">
        <button type="button" class="secondary" onClick={copy}>
          Copy secret
        </button>
        {copied ? <span role="status">{copied}</span> : null}
      </div>
    </div>
  );
}
