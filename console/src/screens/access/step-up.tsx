import { useState } from 'preact/hooks';
import { api, ApiError, ok } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';

/**
 * Some writes (minting or revoking a token) need a session stepped up with a fresh two-step code
 * when two-step verification is on: the API refuses with `mfa_step_up_required`. `guard` runs the
 * write, and on that refusal keeps it waiting; `prompt` asks for the code, verifies it
 * (POST /api/auth/two-factor/verify-totp) and runs the write again.
 */
export function useStepUp() {
  const [waiting, setWaiting] = useState<(() => Promise<void>) | null>(null);
  const guard = async (write: () => Promise<void>): Promise<void> => {
    try {
      await write();
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'mfa_step_up_required') {
        setWaiting(() => write);
        return;
      }
      throw failure;
    }
  };
  const resume = async () => {
    await waiting?.();
    setWaiting(null);
  };
  const prompt = waiting ? <StepUpForm onVerified={resume} onCancel={() => setWaiting(null)} /> : null;
  return { guard, prompt };
}

function StepUpForm({ onVerified, onCancel }: { onVerified: () => Promise<void>; onCancel: () => void }) {
  const [code, setCode] = useState('');
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    await ok(api.POST('/api/auth/two-factor/verify-totp', { body: { code } }));
    await onVerified();
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="step-up-title">
      <h2 id="step-up-title">Confirm it is you</h2>
      <p>This change needs a fresh two-step code: enter the one your authenticator app shows, or a recovery code.</p>
      <Field label="Verification code" id="step-up-code" error={fieldError('code')}>
        <input id="step-up-code" autocomplete="one-time-code" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      </Field>
      <ErrorText message={message} />
      <button type="submit" disabled={busy}>
        Verify and continue
      </button>{' '}
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
