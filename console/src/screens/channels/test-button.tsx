import { useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';

type TestDelivery = Schemas['TestNotificationDelivery'];

const OUTCOME = { delivered: 'Delivered', retry: 'Failed, will retry', failed: 'Failed', pending: 'Queued' } as const;

/**
 * The test button: POST /api/notification-channels/{id}/test sends a sample message through the
 * delivery ledger and answers how the first attempt went: what the receiver said (status code, the
 * start of its answer, as text) or why it failed.
 */
export function TestButton({ channelId, onTried }: { channelId: string; onTried: () => void }) {
  const [result, setResult] = useState<TestDelivery | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await ok(api.POST('/api/notification-channels/{id}/test', { params: { path: { id: channelId } } })));
      onTried();
    } catch (failure) {
      setResult(null);
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  const attempt = result?.attempt;
  return (
    <div class="test-button">
      <button type="button" disabled={busy} onClick={() => void run()}>
        {busy ? 'Sending a test…' : 'Send a test message'}
      </button>
      <ErrorText message={error} />
      {result ? (
        <div class="test-result" role="status" aria-label="Test result">
          <p>
            <span class={`pill pill-${result.status}`}>{OUTCOME[result.status]}</span>{' '}
            {attempt
              ? attempt.statusCode === null
                ? `no answer after ${attempt.latencyMs} ms`
                : `the receiver answered ${attempt.statusCode} in ${attempt.latencyMs} ms`
              : 'the worker is sending it: its attempts appear below'}
          </p>
          {attempt?.error ? <p class="error-text">Error: {attempt.error}</p> : null}
          {attempt?.responseExcerpt ? (
            <figure class="excerpt">
              <figcaption>The receiver's answer (its start)</figcaption>
              <pre>{attempt.responseExcerpt}</pre>
            </figure>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
