import { api, ok } from '../../api/client';
import { ErrorText } from '../../components/field';
import { dateTime } from '../../components/format';
import type { People } from './people';
import { useLoaded } from './use-loaded';

/** Who is on call now in each schedule (GET /api/im/on-call), from which layer or override, until when. */
export function OnCallNow({ people }: { people: People }) {
  const { data, error } = useLoaded(() => ok(api.GET('/api/im/on-call')));
  if (!data) return error ? <ErrorText message={error} /> : <p role="status">Loading who is on call…</p>;
  if (data.schedules.length === 0) return <p>No schedules yet: add one under Schedules.</p>;
  return (
    <ul class="on-call-now" aria-label="On call now">
      {data.schedules.map((s) => (
        <li key={s.scheduleId} class="panel">
          <strong>{s.scheduleName}</strong>
          {s.onCall ? (
            <p>
              <span class="on-call-person">{people.nameOf(s.onCall.userId)}</span>
              <span class="muted">
                {' '}
                · {s.onCall.source.type === 'override' ? 'override' : `layer ${(s.onCall.source.layerIndex ?? 0) + 1}`} · until{' '}
                {s.onCall.until ? dateTime(s.onCall.until) : 'further than 35 days'}
              </span>
            </p>
          ) : (
            <p class="muted">Nobody is on call now.</p>
          )}
        </li>
      ))}
    </ul>
  );
}
