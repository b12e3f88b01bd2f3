import { useCallback, useEffect, useState } from 'preact/hooks';
import { describe } from '../api/client';

export interface Resource<T> {
  /** The last value read, kept while a later read fails (the page goes on showing it). */
  readonly value: T | null;
  /** Why the last read failed, in the API's words; null once a read succeeds. */
  readonly error: string | null;
  /** Reads it again (after an act on the page, or when the event stream says it changed). */
  readonly reload: () => Promise<void>;
  /** Replaces the value with what an act answered, without reading again. */
  readonly set: (value: T) => void;
  /** Changes the value shown with what an act answered or an event told (nothing while none is shown), without reading again. */
  readonly update: (change: (current: T) => T) => void;
}

/**
 * A screen's data read from the API: read when the screen opens and whenever `key` changes (the
 * record's id), read again on demand. A failed read shows the API's refusal and keeps what was shown.
 */
export function useResource<T>(read: (key: string) => Promise<T>, key: string): Resource<T> {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setValue(await read(key));
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
    // `read` is a module-level function of the screen: the key alone names what is read.
  }, [key]);
  useEffect(() => void reload(), [reload]);
  const update = useCallback((change: (current: T) => T) => setValue((current) => (current === null ? current : change(current))), []);
  return { value, error, reload, set: setValue, update };
}
