import { useState } from 'preact/hooks';
import { describe } from '../api/client';

/** A button's work: busy while it runs, and the API's refusal in its words to show beside it. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, act: (work: () => Promise<unknown>) => void act(work) };
}
