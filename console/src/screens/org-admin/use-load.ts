import { useCallback, useEffect, useState } from 'preact/hooks';
import { describe } from '../../api/client';

/**
 * What a screen reads from the API: the data (null while loading), the refusal in the API's words,
 * and `reload` to read it again after a change. `deps` reads it again when they change (filters).
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const read = useCallback(load, deps);
  const reload = useCallback(async () => {
    try {
      setData(await read());
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, [read]);
  useEffect(() => void reload(), [reload]);
  return { data, error, reload };
}

/** An amount of whole cents in its currency, as the browser's locale writes money (12,50 €). */
export function money(cents: number, currency: string): string {
  return amount(cents / 100, currency);
}

/** A decimal amount in its currency. */
export function amount(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** A byte count in words (12.3 MB). */
export function bytes(value: number | null): string {
  if (value === null) return '—';
  if (value < 1024) return `${value} B`;
  const units = ['KB', 'MB', 'GB'];
  let size = value / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size.toFixed(1)} ${units[unit]}`;
}
