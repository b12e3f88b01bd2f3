import { useState } from 'preact/hooks';
import { ApiError, describe } from '../api/client';

/**
 * A form's submission: `submit` runs the work once the browser's own submission is stopped, keeps
 * the form busy meanwhile, and holds what went wrong: an API refusal (its message, and the field it
 * names through `fieldError`) or a plain sentence. `work` may answer a sentence to show instead.
 */
export function useSubmission(work: () => Promise<string | void>) {
  const [error, setError] = useState<ApiError | string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const refusal = await work();
      if (typeof refusal === 'string') setError(refusal);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : describe(failure));
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    submit: (event: Event) => void submit(event),
    /** The refusal's words about one field, when the API named it. */
    fieldError: (name: string) => (error instanceof ApiError ? error.forField(name) : undefined),
    /** The refusal as one sentence for the form (null: none). */
    message: error instanceof ApiError ? error.message : error,
  };
}
