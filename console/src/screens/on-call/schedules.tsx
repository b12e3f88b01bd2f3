import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { ErrorText } from '../../components/field';
import { ScheduleCalendar } from './schedule-calendar';
import type { People } from './people';
import { useLoaded } from './use-loaded';

/** The organization's schedules (GET /api/im/schedules): one shown as a calendar at a time. */
export function Schedules({ people }: { people: People }) {
  const { data, error, reload } = useLoaded(() => ok(api.GET('/api/im/schedules', { params: { query: { perPage: 200 } } })));
  const [chosen, setChosen] = useState<string | null>(null);
  if (!data) return error ? <ErrorText message={error} /> : <p role="status">Loading schedules…</p>;
  if (data.items.length === 0) return <p>No schedules yet. Create them through the API (POST /api/im/schedules).</p>;
  const schedule = data.items.find((s) => s.id === chosen) ?? data.items[0]!;
  return (
    <>
      {data.items.length > 1 ? (
        <div class="field">
          <label for="schedule-choice">Schedule</label>
          <select id="schedule-choice" value={schedule.id} onChange={(e) => setChosen(e.currentTarget.value)}>
            {data.items.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <ScheduleCalendar key={schedule.id} schedule={schedule} people={people} onChanged={reload} />
    </>
  );
}
