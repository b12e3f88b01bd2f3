import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { OverrideForm } from './override-form';
import type { People } from './people';
import { addDays, clock, coversDay, dayLabel, daysOf, weekStart, type Shift } from './calendar';
import { useLoaded } from './use-loaded';

type Schedule = Schemas['ImSchedule'];
type View = 'week' | 'month';
const LENGTH: Record<View, number> = { week: 7, month: 28 };

/**
 * A schedule as a calendar: the final rotation (layers and overrides applied, GET
 * /api/im/schedules/{id}/on-call) for a week or four weeks, a day a cell, overrides marked.
 */
export function ScheduleCalendar({ schedule, people, onChanged }: { schedule: Schedule; people: People; onChanged: () => Promise<void> }) {
  const [view, setView] = useState<View>('week');
  const [from, setFrom] = useState(() => weekStart(new Date()));
  const to = addDays(from, LENGTH[view]);
  const { data, error, reload } = useLoaded(
    () =>
      ok(
        api.GET('/api/im/schedules/{id}/on-call', {
          params: { path: { id: schedule.id }, query: { from: from.toISOString(), to: to.toISOString() } },
        }),
      ),
    [schedule.id, from.getTime(), view],
  );
  const shifts: Shift[] = (data?.segments ?? []).map((s) => ({
    userId: s.userId,
    start: new Date(s.start),
    end: new Date(s.end),
    override: s.source.type === 'override',
  }));
  const colours = new Map<string, number>();
  for (const shift of shifts) if (!colours.has(shift.userId)) colours.set(shift.userId, colours.size % 6);
  const today = weekStart(new Date()).getTime() <= Date.now() ? new Date().toDateString() : '';
  return (
    <div class="schedule">
      <p class="muted">
        {schedule.name} · time zone {schedule.timezone} · {schedule.layers.length} layer{schedule.layers.length === 1 ? '' : 's'} ·{' '}
        {schedule.overrides.length} override{schedule.overrides.length === 1 ? '' : 's'} · times shown in your browser's time zone
      </p>
      <div class="actions calendar-tools">
        <button type="button" onClick={() => setFrom(addDays(from, -LENGTH[view]))}>
          Earlier
        </button>
        <button type="button" onClick={() => setFrom(weekStart(new Date()))}>
          This week
        </button>
        <button type="button" onClick={() => setFrom(addDays(from, LENGTH[view]))}>
          Later
        </button>
        <div class="segmented" role="group" aria-label="Calendar span">
          {(['week', 'month'] as const).map((v) => (
            <button key={v} type="button" aria-pressed={view === v} onClick={() => setView(v)}>
              {v === 'week' ? 'Week' : '4 weeks'}
            </button>
          ))}
        </div>
      </div>
      <ErrorText message={error} />
      {data ? (
        <ol class={`calendar calendar-${view}`} aria-label={`${schedule.name} from ${dayLabel(from)} to ${dayLabel(addDays(to, -1))}`}>
          {daysOf(from, LENGTH[view], shifts).map((day) => (
            <li key={day.date.getTime()} class={day.date.toDateString() === today ? 'calendar-day calendar-today' : 'calendar-day'}>
              <h3 class="calendar-date">{dayLabel(day.date)}</h3>
              {day.shifts.length === 0 ? <p class="muted calendar-empty">Nobody</p> : null}
              <ul class="calendar-shifts">
                {day.shifts.map((shift, i) => (
                  <li key={i} class={`shift person-${colours.get(shift.userId) ?? 0}${shift.override ? ' shift-override' : ''}`}>
                    <span class="shift-time">{coversDay(shift) ? 'all day' : `${clock(shift.start)}–${clock(shift.end)}`}</span>{' '}
                    <span class="shift-person">{people.nameOf(shift.userId)}</span>
                    {shift.override ? <span class="shift-tag"> override</span> : null}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      ) : error ? null : (
        <p role="status">Loading the calendar…</p>
      )}
      <OverrideForm
        schedule={schedule}
        people={people}
        onAdded={async () => {
          await Promise.all([reload(), onChanged()]);
        }}
      />
    </div>
  );
}
