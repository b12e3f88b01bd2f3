import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { shownName, type PageComponent } from './draft';

type PageIncident = Schemas['StatusPageIncident'];
type UpdateStatus = PageIncident['status'];

const STATUSES: Record<UpdateStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

function StatusSelect({
  id,
  value,
  onChange,
  without,
}: {
  id: string;
  value: UpdateStatus;
  onChange: (s: UpdateStatus) => void;
  without?: UpdateStatus;
}) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as UpdateStatus)}>
      {(Object.keys(STATUSES) as UpdateStatus[])
        .filter((s) => s !== without)
        .map((s) => (
          <option key={s} value={s}>
            {STATUSES[s]}
          </option>
        ))}
    </select>
  );
}

/** One incident told on the page: its updates in order, and (for writers) the next update or its resolution. */
function IncidentItem({
  pageId,
  incident,
  writer,
  onChange,
}: {
  pageId: string;
  incident: PageIncident;
  writer: boolean;
  onChange: () => Promise<void>;
}) {
  const [status, setStatus] = useState<UpdateStatus>(incident.status === 'investigating' ? 'identified' : incident.status);
  const [text, setText] = useState('');
  const post = (next: UpdateStatus, words: string) =>
    ok(
      api.POST('/api/status-pages/{id}/incidents/{incidentId}/updates', {
        params: { path: { id: pageId, incidentId: incident.id } },
        body: { status: next, message: words },
      }),
    );
  const update = useSubmission(async () => {
    await post(status, text);
    setText('');
    await onChange();
  });
  const resolve = useSubmission(async () => {
    await post('resolved', text.trim() === '' ? 'This incident has been resolved.' : text);
    setText('');
    await onChange();
  });
  const key = incident.id.slice(0, 8);
  return (
    <li>
      <h3>{incident.title}</h3>
      <p class="muted">
        {STATUSES[incident.status]} · since {dateTime(incident.createdAt)}
        {incident.resolvedAt ? ` · resolved ${dateTime(incident.resolvedAt)}` : ''}
      </p>
      <ol class="sp-updates" aria-label={`Updates of ${incident.title}`}>
        {incident.updates.map((u, i) => (
          <li key={i}>
            <p>
              <strong>{STATUSES[u.status]}</strong> <span class="muted">{dateTime(u.createdAt)}</span>
            </p>
            <p>{u.message}</p>
          </li>
        ))}
      </ol>
      {writer && incident.resolvedAt === null ? (
        <form onSubmit={update.submit} noValidate aria-label={`Update ${incident.title}`}>
          <div class="sp-inline">
            <Field label="Status" id={`upd-status-${key}`} error={update.fieldError('status')}>
              <StatusSelect id={`upd-status-${key}`} value={status} onChange={setStatus} />
            </Field>
            <Field label="Update message" id={`upd-message-${key}`} error={update.fieldError('message')}>
              <input id={`upd-message-${key}`} value={text} onInput={(e) => setText(e.currentTarget.value)} />
            </Field>
          </div>
          <ErrorText message={update.message ?? resolve.message} />
          <div class="actions">
            <button type="submit" disabled={update.busy}>
              Post update
            </button>
            <button type="button" class="secondary" disabled={resolve.busy} onClick={resolve.submit}>
              Resolve
            </button>
          </div>
        </form>
      ) : null}
    </li>
  );
}

/** Incidents told on a status page (GET/POST /api/status-pages/{id}/incidents, updates, resolution). */
export function PageIncidents({
  pageId,
  components,
  writer,
  onChange,
}: {
  pageId: string;
  components: PageComponent[];
  writer: boolean;
  onChange: () => void;
}) {
  const [incidents, setIncidents] = useState<PageIncident[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<{ title: string; status: UpdateStatus; message: string; componentIds: string[] }>({
    title: '',
    status: 'investigating',
    message: '',
    componentIds: [],
  });
  const load = useCallback(async () => {
    try {
      setIncidents(
        (await ok(api.GET('/api/status-pages/{id}/incidents', { params: { path: { id: pageId }, query: { perPage: 50 } } }))).items,
      );
    } catch (failure) {
      setError(describe(failure));
    }
  }, [pageId]);
  useEffect(() => void load(), [load]);
  const changed = async () => {
    await load();
    onChange();
  };
  const create = useSubmission(async () => {
    await ok(api.POST('/api/status-pages/{id}/incidents', { params: { path: { id: pageId } }, body: form }));
    setForm({ title: '', status: 'investigating', message: '', componentIds: [] });
    await changed();
  });
  const toggle = (cid: string, on: boolean) =>
    setForm({ ...form, componentIds: on ? [...form.componentIds, cid] : form.componentIds.filter((c) => c !== cid) });
  return (
    <section class="panel sp-wide" aria-labelledby="page-incidents-title">
      <h2 id="page-incidents-title">Incidents on this page</h2>
      <ErrorText message={error} />
      {incidents?.length === 0 ? <p>No incident told on this page in the last 90 days.</p> : null}
      <ul class="plain-list" aria-label="Page incidents">
        {incidents?.map((incident) => (
          <IncidentItem key={incident.id} pageId={pageId} incident={incident} writer={writer} onChange={changed} />
        ))}
      </ul>
      {writer ? (
        <form onSubmit={create.submit} noValidate aria-labelledby="new-incident-title">
          <h3 id="new-incident-title">Tell visitors about an incident</h3>
          <Field label="Incident title" id="inc-title" error={create.fieldError('title')}>
            <input id="inc-title" value={form.title} onInput={(e) => setForm({ ...form, title: e.currentTarget.value })} />
          </Field>
          <Field label="Status" id="inc-status" error={create.fieldError('status')}>
            <StatusSelect id="inc-status" value={form.status} onChange={(status) => setForm({ ...form, status })} without="resolved" />
          </Field>
          <Field label="Message to visitors" id="inc-message" error={create.fieldError('message')}>
            <textarea id="inc-message" value={form.message} onInput={(e) => setForm({ ...form, message: e.currentTarget.value })} />
          </Field>
          {components.length > 0 ? (
            <fieldset>
              <legend>Affected components</legend>
              {components.map((c) => (
                <label class="sp-check" key={c.id} for={`inc-c-${c.id}`}>
                  <input
                    id={`inc-c-${c.id}`}
                    type="checkbox"
                    checked={form.componentIds.includes(c.id)}
                    onChange={(e) => toggle(c.id, e.currentTarget.checked)}
                  />
                  {shownName(c)}
                </label>
              ))}
            </fieldset>
          ) : null}
          <ErrorText message={create.message} />
          <button type="submit" disabled={create.busy}>
            Post incident
          </button>
        </form>
      ) : null}
    </section>
  );
}
