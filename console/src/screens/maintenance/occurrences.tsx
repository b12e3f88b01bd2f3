import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, describe, ok, type Schemas } from '../../api/client';
import { spanInZone } from './zoned-time';

type Occurrence = Schemas['MaintenanceOccurrence'];

export interface Recurrence {
  startTime: string;
  endTime: string;
  timezone: string;
  rrule: string | null;
  from?: string;
}

/**
 * The next occurrences of a recurrence, from POST /api/maintenance-windows/preview-occurrences,
 * each shown on the window's wall clock in its zone. `onRefusal` hears the API's refusal (an issue
 * names the field it concerns) so a form can show it there; it is also said here.
 */
export function useOccurrences(recurrence: Recurrence | null, count: number, onRefusal?: (error: ApiError | null) => void) {
  const [occurrences, setOccurrences] = useState<Occurrence[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = recurrence ? JSON.stringify(recurrence) : '';
  useEffect(() => {
    if (!recurrence) {
      setOccurrences(null);
      return;
    }
    let current = true;
    const timer = window.setTimeout(() => {
      ok(api.POST('/api/maintenance-windows/preview-occurrences', { body: { ...recurrence, count } })).then(
        (answer) => {
          if (!current) return;
          setOccurrences(answer.occurrences);
          setError(null);
          onRefusal?.(null);
        },
        (failure: unknown) => {
          if (!current) return;
          setOccurrences(null);
          setError(describe(failure));
          onRefusal?.(failure instanceof ApiError ? failure : null);
        },
      );
    }, 250);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [key, count]);
  return { occurrences, error };
}

export function OccurrenceList({ occurrences, zone, label }: { occurrences: Occurrence[]; zone: string; label: string }) {
  if (occurrences.length === 0) return <p>No occurrence is left.</p>;
  return (
    <ol class="occurrences" aria-label={label}>
      {occurrences.map((o) => (
        <li key={o.startTime}>
          <time dateTime={o.startTime}>{spanInZone(o.startTime, o.endTime, zone)}</time>
        </li>
      ))}
    </ol>
  );
}
