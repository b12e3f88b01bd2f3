import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { offered } from './im-acts';
import type { People } from './people';
import type { ImDetail, ImEntry } from './im-timeline';

type ImIncident = Schemas['ImIncident'];
/** An act's answer (the incident after it) and the timeline entries the service recorded with it. */
export type Acted = (answer: ImIncident, entries: Array<Pick<ImEntry, 'kind' | 'details'>>) => void;

/**
 * The acts on an IM incident, each a button as tall as a finger: acknowledge, re-trigger, snooze an
 * hour, escalate now, resolve; then add a responder (paging them by e-mail) and merge other open
 * incidents into it. Each is shown when the incident's `can` says the caller may take it (the API
 * computes it with the gates that enforce the acts: status, team, role); a refusal all the same (a
 * lost race) is shown under the buttons. One act, one request: `onActed` gets its answer, with its
 * `can` after it. `children` (the incident's facts) come between the buttons and the forms.
 */
export function ImIncidentActs({
  incident,
  people,
  onActed,
  children,
}: {
  incident: ImDetail;
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
  const { can } = incident;
  if (!Object.values(can).includes(true)) return <>{children}</>;
  return (
    <section class="im-acts" aria-label="Acts">
      <div class="actions im-act-buttons">
        {offered(incident).map((act) => (
          <button
            key={act.can}
            type="button"
            class={act.secondary ? 'secondary' : undefined}
            disabled={busy}
            onClick={() => void run(() => act.request(incident.id), act.entries)}
          >
            {act.label}
          </button>
        ))}
      </div>
      <ErrorText message={refusal} />
      {children}
      {can.addResponder ? (
        <ResponderForm
          incident={incident}
          people={people}
          busy={busy}
          mayPage={can.pageResponder}
          onAdd={(userId, notify) =>
            run(
              () => ok(api.POST('/api/im/incidents/{id}/responders', { params, body: { userId, notify } })),
              () => [{ kind: 'responderAdded', details: { userId, notified: notify } }],
            )
          }
        />
      ) : null}
      {can.merge ? (
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
      ) : null}
    </section>
  );
}

/** Add a responder: one of the organization's people, paged by e-mail if asked and the caller may page (`can.pageResponder`). */
function ResponderForm({
  incident,
  people,
  busy,
  mayPage,
  onAdd,
}: {
  incident: ImDetail;
  people: People;
  busy: boolean;
  mayPage: boolean;
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
      {mayPage ? (
        <label class="im-check">
          <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.currentTarget.checked)} /> Page them by e-mail
        </label>
      ) : null}
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
