import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { Pager } from './pager';
import { useLoad } from './use-load';
import './org-admin.css';

type Entry = Schemas['AuditEntry'];
const PER_PAGE = 25;
const ACTIONS = ['created', 'updated', 'deleted', 'signedIn', 'signInFailed', 'toolCalled', 'monitor.stateUnknown', 'monitor.stateKnown'];

interface Filters {
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  from: string;
  to: string;
}
const NO_FILTER: Filters = { actor: '', action: '', resourceType: '', resourceId: '', from: '', to: '' };

/** A datetime-local value (the browser's time zone) as ISO 8601, or undefined when empty. */
const iso = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);
const orUndefined = (value: string): string | undefined => value.trim() || undefined;

/** Who did it, in words: their e-mail address, or what kind of actor it was. */
function who(entry: Entry): string {
  const { actor } = entry;
  if (actor.type === 'system') return 'The service';
  if (actor.type === 'anonymous') return actor.label ?? 'Someone not signed in';
  const name = actor.label ?? actor.userId ?? 'Unknown user';
  if (actor.type === 'apiToken') return `${name} (API token ${actor.credential.id ?? ''})`.replace(' )', ')');
  if (actor.type === 'agent') return `${name} (agent ${actor.credential.id ?? ''})`.replace(' )', ')');
  return name;
}

/** A value before or after a change, as text (objects as JSON). */
const shown = (value: unknown): string =>
  value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** A field's change: the value made or removed, or the value before and after. */
function changeText(action: string, change: { before?: unknown; after?: unknown }): string {
  if (action === 'created') return shown(change.after);
  if (action === 'deleted') return shown(change.before);
  return `${shown(change.before)} → ${shown(change.after)}`;
}

function AuditEntry({ entry }: { entry: Entry }) {
  const changes = Object.entries(entry.changes);
  return (
    <li class="audit-entry">
      <p>
        <strong>{who(entry)}</strong> {entry.action} <span class="mono">{entry.resourceType}</span>{' '}
        <span class="mono">{entry.resourceId}</span>
      </p>
      <p class="muted">
        <time dateTime={entry.occurredAt}>{dateTime(entry.occurredAt)}</time>
        {entry.ip ? ` · from ${entry.ip}` : ''}
        {entry.requestId ? ` · request ${entry.requestId}` : ''}
      </p>
      {changes.length > 0 ? (
        <dl class="audit-changes">
          {changes.map(([field, change]) => (
            <div key={field}>
              <dt class="mono">{field}</dt>
              <dd>{changeText(entry.action, change)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}

/** GET /api/audit-log with its filters, a page at a time, newest first. */
export function AuditLog() {
  const [form, setForm] = useState<Filters>(NO_FILTER);
  const [applied, setApplied] = useState<Filters>(NO_FILTER);
  const [page, setPage] = useState(1);
  const { data, error } = useLoad(
    () =>
      ok(
        api.GET('/api/audit-log', {
          params: {
            query: {
              page,
              perPage: PER_PAGE,
              actor: orUndefined(applied.actor),
              action: orUndefined(applied.action),
              resourceType: orUndefined(applied.resourceType),
              resourceId: orUndefined(applied.resourceId),
              from: iso(applied.from),
              to: iso(applied.to),
            },
          },
        }),
      ),
    [applied, page],
  );
  const { submit, fieldError, message } = useSubmission(async () => {
    // Checked here so a wrong range is told at the field before any call.
    if (form.from && form.to && new Date(form.from) > new Date(form.to)) return 'The end of the range is before its start.';
    setApplied(form);
    setPage(1);
  });
  const set = (name: keyof Filters) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    setForm({ ...form, [name]: event.currentTarget.value });
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form class="panel org-filters" onSubmit={submit} aria-label="Audit log filters">
        <Field label="Actor (e-mail, user or token id)" id="audit-actor" error={fieldError('actor')}>
          <input id="audit-actor" value={form.actor} onInput={set('actor')} />
        </Field>
        <Field label="Action" id="audit-action" error={fieldError('action')}>
          <select id="audit-action" value={form.action} onChange={set('action')}>
            <option value="">Any</option>
            {ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Resource type" id="audit-type" error={fieldError('resourceType')}>
          <input id="audit-type" placeholder="monitor, customer, apiToken…" value={form.resourceType} onInput={set('resourceType')} />
        </Field>
        <Field label="Resource id" id="audit-id" error={fieldError('resourceId')}>
          <input id="audit-id" value={form.resourceId} onInput={set('resourceId')} />
        </Field>
        <Field label="From" id="audit-from" error={fieldError('from')}>
          <input id="audit-from" type="datetime-local" value={form.from} onInput={set('from')} />
        </Field>
        <Field label="To" id="audit-to" error={fieldError('to')}>
          <input id="audit-to" type="datetime-local" value={form.to} onInput={set('to')} />
        </Field>
        <ErrorText message={message} />
        <div class="org-actions">
          <button type="submit">Filter</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setForm(NO_FILTER);
              setApplied(NO_FILTER);
              setPage(1);
            }}
          >
            Clear filters
          </button>
        </div>
      </form>
      <ErrorText message={error} />
      {data === null && !error ? <p role="status">Loading the audit log…</p> : null}
      {data?.total === 0 ? <p>No entries match.</p> : null}
      <ol class="plain-list" aria-label="Audit entries">
        {data?.items.map((entry) => (
          <AuditEntry key={entry.id} entry={entry} />
        ))}
      </ol>
      {data ? <Pager page={page} perPage={PER_PAGE} total={data.total} onPage={setPage} what="entries" /> : null}
    </section>
  );
}
