import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { may } from '../../permissions';
import type { User } from '../../session';
import type { People } from './people';
import type { ImDetail, ImEntry } from './im-timeline';

type ImIncident = Schemas['ImIncident'];
/** An act's answer (the incident after it) and the timeline entries the service recorded with it. */
export type Acted = (answer: ImIncident, entries: Array<Pick<ImEntry, 'kind' | 'details'>>) => void;

const HOUR = 3_600_000;

/**
 * The acts on an open IM incident, each a button as tall as a finger: acknowledge (triggered),
 * re-trigger (acknowledged), snooze an hour, escalate now (when the session's `can` allows
 * `imIncident.escalate`), resolve; then add a responder and merge other open incidents into it.
 * Every other rule (team membership, a team admin to page a responder) is the API's: its refusal is
 * shown under the buttons. One act, one request: `onActed` gets its answer. `children` (the
 * incident's facts) come between the buttons and the forms.
 */
export function ImIncidentActs({
  incident,
  user,
  people,
  onActed,
  children,
}: {
  incident: ImDetail;
  user: User;
  people: People;
  onActed: Acted;
  /** Shown between the buttons and the forms (what the responder reads before adding people). */
  children?: ComponentChildren;
}) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const params = { path: { id: incident.id } };
  const run = async (request: () => Promise<ImIncident>, entries: (answer: ImIncident) => Array<Pick<ImEntry, 'kind' | 'details'>>) => {
    setBusy(true);
    try {
      const answer = await request();
      setRefusal(null);
      onActed(answer, entries(answer));
      return true;
    } catch (failure) {
      setRefusal(describe(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const snooze = () => {
    const snoozedUntil = new Date(Date.now() + HOUR).toISOString();
    return run(
      () => ok(api.POST('/api/im/incidents/{id}/snooze', { params, body: { snoozedUntil } })),
      (answer) => [{ kind: 'snoozed', details: { until: answer.snoozedUntil } }],
    );
  };
  const open = incident.status === 'triggered' || incident.status === 'acknowledged';
  if (!open) return <>{children}</>;
  return (
    <section class="im-acts" aria-label="Acts">
      <div class="actions im-act-buttons">
        {incident.status === 'triggered' ? (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void run(
                () => ok(api.POST('/api/im/incidents/{id}/acknowledge', { params })),
                () => [{ kind: 'acknowledged', details: {} }],
              )
            }
          >
            Acknowledge
          </button>
        ) : (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() =>
              void run(
                () => ok(api.POST('/api/im/incidents/{id}/status', { params, body: { status: 'triggered' } })),
                () => [{ kind: 'statusChanged', details: { from: 'acknowledged', to: 'triggered' } }],
              )
            }
          >
            Re-trigger
          </button>
        )}
        <button type="button" class="secondary" disabled={busy} onClick={() => void snooze()}>
          Snooze an hour
        </button>
        {may(user, 'imIncident.escalate') ? (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() =>
              void run(
                () => ok(api.POST('/api/im/incidents/{id}/escalate', { params })),
                () => [{ kind: 'escalated', details: {} }],
              )
            }
          >
            Escalate now
          </button>
        ) : null}
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void run(
              () => ok(api.POST('/api/im/incidents/{id}/resolve', { params })),
              () => [{ kind: 'resolved', details: {} }],
            )
          }
        >
          Resolve
        </button>
      </div>
      <ErrorText message={refusal} />
      {children}
      <ResponderForm
        incident={incident}
        people={people}
        busy={busy}
        onAdd={(userId, notify) =>
          run(
            () => ok(api.POST('/api/im/incidents/{id}/responders', { params, body: { userId, notify } })),
            () => [{ kind: 'responderAdded', details: { userId, notified: notify } }],
          )
        }
      />
      <MergeForm
        incident={incident}
        busy={busy}
        onMerge={(sources) =>
          run(
            () => ok(api.POST('/api/im/incidents/{id}/merge', { params, body: { sourceIncidentIds: sources.map((s) => s.id) } })),
            () => sources.map((s) => ({ kind: 'merged', details: { from: s.id, occurrences: s.occurrenceCount } })),
          )
        }
      />
    </section>
  );
}

/** Add a responder: one of the organization's people, paged by e-mail if asked (the API says who may page). */
function ResponderForm({
  incident,
  people,
  busy,
  onAdd,
}: {
  incident: ImDetail;
  people: People;
  busy: boolean;
  onAdd: (userId: string, notify: boolean) => Promise<boolean>;
}) {
  const [userId, setUserId] = useState('');
  const [notify, setNotify] = useState(false);
  const id = `im-responder-${incident.id}`;
  return (
    <form
      class="panel im-form"
      aria-label="Add a responder"
      onSubmit={(event) => {
        event.preventDefault();
        if (userId) void onAdd(userId, notify).then((added) => added && setUserId(''));
      }}
    >
      <Field label="Responder to add" id={id}>
        <select id={id} value={userId} onChange={(e) => setUserId(e.currentTarget.value)}>
          <option value="">Choose a person…</option>
          {people.list.map((p) => (
            <option key={p.id} value={p.id}>
              {people.nameOf(p.id)}
            </option>
          ))}
        </select>
      </Field>
      <label class="im-check">
        <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.currentTarget.checked)} /> Page them by e-mail
      </label>
      <button type="submit" disabled={busy || !userId}>
        Add responder
      </button>
    </form>
  );
}

/**
 * Merge other open incidents into this one: the candidates (GET /api/im/incidents, open ones) are
 * read when the person asks to merge; the merge itself is one request.
 */
function MergeForm({
  incident,
  busy,
  onMerge,
}: {
  incident: ImDetail;
  busy: boolean;
  onMerge: (sources: ImIncident[]) => Promise<boolean>;
}) {
  const [candidates, setCandidates] = useState<ImIncident[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const choose = async () => {
    try {
      const page = await ok(api.GET('/api/im/incidents', { params: { query: { status: 'triggered,acknowledged', perPage: 100 } } }));
      setCandidates(page.items.filter((item) => item.id !== incident.id));
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  };
  if (candidates === null)
    return (
      <div class="actions">
        <button type="button" class="secondary" onClick={() => void choose()}>
          Merge other incidents into this one…
        </button>
        <ErrorText message={error} />
      </div>
    );
  const sources = candidates.filter((c) => chosen.includes(c.id));
  return (
    <form
      class="panel im-form"
      aria-label="Merge incidents into this one"
      onSubmit={(event) => {
        event.preventDefault();
        if (sources.length > 0) void onMerge(sources).then((merged) => merged && (setCandidates(null), setChosen([])));
      }}
    >
      <fieldset>
        <legend>Incidents to merge in</legend>
        {candidates.length === 0 ? <p class="muted">No other open incident.</p> : null}
        {candidates.map((c) => (
          <label key={c.id} class="im-check">
            <input
              type="checkbox"
              checked={chosen.includes(c.id)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setChosen((now) => (on ? [...now, c.id] : now.filter((id) => id !== c.id)));
              }}
            />{' '}
            {c.title} <span class="muted">({c.status})</span>
          </label>
        ))}
      </fieldset>
      <div class="actions">
        <button type="submit" disabled={busy || sources.length === 0}>
          Merge
        </button>
        <button type="button" class="secondary" onClick={() => setCandidates(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
