import { useCallback, useEffect, useState } from 'preact/hooks';
import { describe } from '../../api/client';

/** Data a section reads from the API, its refusal in words, a way to read it again, and one to show an act's answer instead. */
export function useLoaded<T>(load: () => Promise<T>, deps: readonly unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, deps);
  useEffect(() => void reload(), [reload]);
  return { data, error, reload, set: setData };
}
