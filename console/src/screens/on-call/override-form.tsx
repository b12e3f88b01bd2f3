import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import { localInput } from './calendar';
import type { People } from './people';

/**
 * An override: someone takes the schedule from start to end (POST /api/im/schedules/{id}/overrides).
 * Team administrators and organization administrators may; the API's refusal is shown in its words.
 */
export function OverrideForm({
  schedule,
  people,
  onAdded,
}: {
  schedule: Schemas['ImSchedule'];
  people: People;
  onAdded: () => Promise<void>;
}) {
  const now = new Date();
  const candidates = [...new Set([...people.list.map((p) => p.id), ...schedule.layers.flatMap((l) => l.users)])];
  const [form, setForm] = useState({
    userId: candidates[0] ?? '',
    start: localInput(new Date(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours() + 1)),
    end: localInput(new Date(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours() + 9)),
  });
  const [done, setDone] = useState<string | null>(null);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    setDone(null);
    const start = new Date(form.start);
    const end = new Date(form.end);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return 'Give a start and an end.';
    await ok(
      api.POST('/api/im/schedules/{id}/overrides', {
        params: { path: { id: schedule.id } },
        body: { userId: form.userId, start: start.toISOString(), end: end.toISOString() },
      }),
    );
    setDone(`Override added for ${people.nameOf(form.userId)}.`);
    await onAdded();
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="override-title">
      <h3 id="override-title">Add an override</h3>
      <Field label="Who takes over" id="override-user" error={fieldError('userId')}>
        <select id="override-user" value={form.userId} onChange={(e) => setForm({ ...form, userId: e.currentTarget.value })}>
          {candidates.map((id) => (
            <option key={id} value={id}>
              {people.nameOf(id)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="From" id="override-start" error={fieldError('start')}>
        <input
          id="override-start"
          type="datetime-local"
          value={form.start}
          onInput={(e) => setForm({ ...form, start: e.currentTarget.value })}
        />
      </Field>
      <Field label="Until" id="override-end" error={fieldError('end')}>
        <input id="override-end" type="datetime-local" value={form.end} onInput={(e) => setForm({ ...form, end: e.currentTarget.value })} />
      </Field>
      <ErrorText message={message} />
      {done ? (
        <p role="status" class="note">
          {done}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        Add override
      </button>
    </form>
  );
}
