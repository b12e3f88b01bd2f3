import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok } from '../../api/client';
import { ErrorText } from '../../components/field';
import { dateTime } from '../../components/format';
import { Link } from '../../components/link';
import { getMonitor, type AnyMonitor, type ChangeRequest } from '../../monitors/monitor-api';
import { COMMON_FIELDS, KIND_FIELDS } from '../../monitors/monitor-kinds';
import type { MonitorKind } from '../../monitors/monitor-rows';
import type { User } from '../../session';
import { may } from '../../permissions';
import './monitors.css';

type Decision = 'approved' | 'rejected' | 'cancelled';
const shown = (value: unknown): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '—' : JSON.stringify(value);

/** The monitors the requests concern, as they are now (a deleted one is missing). */
async function monitorsOf(requests: ChangeRequest[]): Promise<Map<string, AnyMonitor>> {
  const ids = [...new Map(requests.map((r) => [r.monitorPublicId, r.monitorType])).entries()];
  const found = await Promise.all(ids.map(async ([id, kind]) => [id, await getMonitor(kind, id).catch(() => null)] as const));
  return new Map(found.filter((entry): entry is readonly [string, AnyMonitor] => entry[1] !== null));
}

/** A field's label in the monitor form of its kind (the API's name when the form has none). */
const labelOf = (kind: MonitorKind, field: string): string =>
  [...COMMON_FIELDS, ...KIND_FIELDS[kind]].find((spec) => spec.name === field)?.label ?? field;

/** One request: what it would change, who asked, and the decision buttons the user may use. */
function RequestItem(props: { request: ChangeRequest; monitor: AnyMonitor | undefined; user: User; onSettled: () => void }) {
  const { request, monitor, user, onSettled } = props;
  const now: ReadonlyMap<string, unknown> | undefined = monitor && new Map(Object.entries(monitor));
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const decide = async (status: Decision) => {
    setBusy(true);
    setError(null);
    try {
      const body = { status, ...(note.trim() ? { note: note.trim() } : {}) };
      await ok(api.PATCH('/api/change-requests/{id}', { params: { path: { id: request.publicId } }, body }));
      onSettled();
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  const open = request.status === 'open';
  const noteId = `decision-note-${request.publicId}`;
  return (
    <li class="change-request">
      <p class="change-request-title">
        <Link to={`/monitors/${request.monitorType}/${request.monitorPublicId}`}>{monitor?.name ?? 'A deleted monitor'}</Link>{' '}
        <span class={`request-status request-${request.status}`}>{request.status}</span>
      </p>
      <p class="monitor-meta">
        {request.action === 'delete' ? 'Delete the monitor' : 'Change'} · asked {dateTime(request.createdAt)}
        {request.decidedAt ? ` · settled ${dateTime(request.decidedAt)}` : ''}
      </p>
      {request.action === 'update' ? (
        <dl class="settings">
          {Object.entries(request.changes).map(([field, value]) => (
            <div key={field} class="setting">
              <dt>{labelOf(request.monitorType, field)}</dt>
              <dd>
                {now?.has(field) && open ? `${shown(now.get(field))} → ` : ''}
                {shown(value)}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {request.note ? <p>Note: {request.note}</p> : null}
      {request.decisionNote ? <p>Answer: {request.decisionNote}</p> : null}
      {open && may(user, 'changeRequest.settle') ? (
        <div class="decision">
          <label for={noteId}>Answer (optional)</label>
          <input id={noteId} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          <div class="monitor-actions">
            <button type="button" disabled={busy} onClick={() => void decide('approved')}>
              Approve
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => void decide('rejected')}>
              Reject
            </button>
          </div>
        </div>
      ) : null}
      {open && user.customerId !== null && may(user, 'changeRequest.cancel') ? (
        <button type="button" class="secondary" disabled={busy} onClick={() => void decide('cancelled')}>
          Withdraw
        </button>
      ) : null}
      <ErrorText message={error} />
    </li>
  );
}

/**
 * Change requests (GET /api/change-requests): customers of managed monitors propose, the
 * organization's admins and editors approve (the change applies) or reject; the customer may withdraw.
 */
export function ChangeRequests({ user }: { user: User }) {
  const [status, setStatus] = useState<'open' | 'all'>('open');
  const [requests, setRequests] = useState<ChangeRequest[] | null>(null);
  const [monitors, setMonitors] = useState<Map<string, AnyMonitor>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      const query = { perPage: 100, ...(status === 'open' ? { status } : {}) };
      const page = await ok(api.GET('/api/change-requests', { params: { query } }));
      setMonitors(await monitorsOf(page.items));
      setRequests(page.items);
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, [status]);
  useEffect(() => void reload(), [reload]);
  return (
    <section aria-labelledby="change-requests-title">
      <h1 id="change-requests-title">Change requests</h1>
      <p class="monitor-meta">
        Customers propose changes to the monitors the organization manages for them; a change applies once approved.
      </p>
      <div class="tabs" role="group" aria-label="Which requests">
        {(['open', 'all'] as const).map((each) => (
          <button
            key={each}
            type="button"
            class={each === status ? 'tab active' : 'tab'}
            aria-pressed={each === status}
            onClick={() => setStatus(each)}
          >
            {each === 'open' ? 'Waiting' : 'All'}
          </button>
        ))}
      </div>
      <ErrorText message={error} />
      {requests === null ? (
        <p role="status">Loading…</p>
      ) : requests.length === 0 ? (
        <p>{status === 'open' ? 'No request is waiting.' : 'No change requests.'}</p>
      ) : (
        <ul class="plain-list change-requests" aria-label="Change requests">
          {requests.map((request) => (
            <RequestItem
              key={request.publicId}
              request={request}
              monitor={monitors.get(request.monitorPublicId)}
              user={user}
              onSettled={() => void reload()}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
