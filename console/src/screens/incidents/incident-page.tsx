import { useState } from 'preact/hooks';
import { api, ok, type Incident, type Schemas } from '../../api/client';
import type { LiveEvent } from '../../api/live-events';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import { dateTime } from '../../components/format';
import { Link } from '../../components/link';
import { useLiveReload } from '../../monitors/use-live-reload';
import type { User } from '../../session';
import { may } from '../../permissions';
import { IncidentList } from './incident-list';
import { Loading } from '../../components/loading';
import { useResource } from '../../components/use-resource';
import { AffectedMonitors } from '../monitors/dependencies';

type Detail = Schemas['IncidentDetail'];
type Delivery = Schemas['NotificationDelivery'];
type Timeline = Detail['timeline'][number];

interface Loaded {
  incident: Detail;
  deliveries: Delivery[];
  channelNames: Map<string, string>;
  userNames: Map<string, string>;
}

/** One line of the incident's story: what the rules saw and did, or what a channel was told and how it answered. */
type Line =
  | { kind: 'timeline'; at: string; entry: Detail['timeline'][number] }
  | { kind: 'attempt'; at: string; delivery: Delivery; attempt: Delivery['attempts'][number] }
  | { kind: 'pending'; at: string; delivery: Delivery };

async function readDeliveries(incidentId: string): Promise<Delivery[]> {
  const page = await ok(api.GET('/api/notification-deliveries', { params: { query: { incidentId, perPage: 200 } } }));
  return page.items;
}

async function load(id: string, orgWide: boolean): Promise<Loaded> {
  const incident = await ok(api.GET('/api/incidents/{id}', { params: { path: { id } } }));
  const [deliveries, channels, users] = await Promise.all([
    readDeliveries(incident.publicId),
    ok(api.GET('/api/notification-channels', { params: { query: { perPage: 200 } } })).catch(() => null),
    // Customer-bound users may not list users (they would be refused): they see "a user".
    orgWide ? ok(api.GET('/api/users', { params: { query: { perPage: 200 } } })).catch(() => null) : null,
  ]);
  return {
    incident,
    deliveries,
    channelNames: new Map((channels?.items ?? []).map((c) => [c.publicId, c.name])),
    userNames: new Map((users?.items ?? []).map((u) => [u.id, u.name])),
  };
}

/**
 * The incident after an act, from the act's answer alone: its fields, and the timeline entry the
 * service recorded with the act (`acknowledged` or `resolved`, by whom, when: what the answer says),
 * so the page reads nothing again.
 */
export function afterAct(shown: Detail, answer: Incident): Detail {
  const entry = (kind: 'acknowledged' | 'resolved', at: string | null, userId: string | null): Timeline[] =>
    at ? [{ kind, at, userId, location: null, status: null, reasonCode: null, message: null }] : [];
  const added =
    answer.status === shown.status
      ? []
      : answer.status === 'acknowledged'
        ? entry('acknowledged', answer.acknowledgedAt, answer.acknowledgedByUserId)
        : answer.status === 'resolved'
          ? entry('resolved', answer.resolvedAt, answer.resolvedByUserId)
          : [];
  return { ...shown, ...answer, timeline: [...shown.timeline, ...added] };
}

/** Whether the page already shows what a live event tells of the incident (its own act's answer showed it). */
function shows(incident: Detail, event: LiveEvent): boolean {
  if (event.kind === 'incident.updated') {
    const at = Date.parse(event.data.at);
    return incident.timeline.some((entry) => entry.kind === 'update' && Date.parse(entry.at) === at);
  }
  return event.kind !== 'monitor.stateChanged' && event.kind !== 'notification.deliveryAttempted' && incident.status === event.data.status;
}

function linesOf({ incident, deliveries }: Loaded): Line[] {
  const lines: Line[] = incident.timeline.map((entry) => ({ kind: 'timeline', at: entry.at, entry }));
  for (const delivery of deliveries) {
    for (const attempt of delivery.attempts) lines.push({ kind: 'attempt', at: attempt.at, delivery, attempt });
    if (delivery.status === 'pending' && delivery.attempts.length === 0) lines.push({ kind: 'pending', at: delivery.createdAt, delivery });
  }
  return lines.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

const TIMELINE_WORDS: Record<Detail['timeline'][number]['kind'], string> = {
  opened: 'Opened',
  locationReport: 'Location reported',
  reminder: 'Reminder sent',
  acknowledged: 'Acknowledged',
  update: 'Update',
  resolved: 'Resolved',
};

function LineText({ line, loaded }: { line: Line; loaded: Loaded }) {
  if (line.kind === 'timeline') {
    const { entry } = line;
    const who = entry.userId ? ` by ${loaded.userNames.get(entry.userId) ?? 'a user'}` : '';
    const where = entry.location ? ` from ${entry.location}` : '';
    const what = entry.status ? `: ${entry.status}` : '';
    return (
      <>
        <strong>{TIMELINE_WORDS[entry.kind]}</strong>
        {who}
        {where}
        {what}
        {entry.message ? <span class="muted"> — {entry.message}</span> : null}
      </>
    );
  }
  const channel = loaded.channelNames.get(line.delivery.channelId) ?? line.delivery.channelType;
  if (line.kind === 'pending') {
    return (
      <>
        <strong>{channel}</strong> ({line.delivery.channelType}) to be told {line.delivery.event}: waiting for its first try
      </>
    );
  }
  const { attempt } = line;
  const answer = attempt.statusCode === null ? 'no answer' : `answered ${attempt.statusCode}`;
  return (
    <>
      <strong>{channel}</strong> ({line.delivery.channelType}) told {line.delivery.event}, try {attempt.attempt}:{' '}
      <span class={`pill pill-${attempt.outcome}`}>{attempt.outcome}</span> {answer} in {attempt.latencyMs} ms
      {attempt.error ? <span class="muted"> — {attempt.error}</span> : null}
    </>
  );
}

/**
 * An update posted to the incident's timeline (POST /api/incidents/{id}/updates): what responders
 * found, what happens next. Shown to the roles that may post while the incident is not resolved;
 * the API's refusal is shown at the field or under the form.
 */
function UpdateForm({ incident, onPosted }: { incident: Detail; onPosted: (entry: Timeline) => void }) {
  const [message, setMessage] = useState('');
  const {
    busy,
    submit,
    fieldError,
    message: refusal,
  } = useSubmission(async () => {
    const entry = await ok(api.POST('/api/incidents/{id}/updates', { params: { path: { id: incident.publicId } }, body: { message } }));
    setMessage('');
    onPosted(entry);
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="incident-update-title">
      <h2 id="incident-update-title">Post an update</h2>
      <Field label="Update" id="incident-update" error={fieldError('message')}>
        <textarea id="incident-update" rows={3} maxLength={2000} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
      </Field>
      <ErrorText message={fieldError('message') ? null : refusal} />
      <button type="submit" disabled={busy}>
        Post update
      </button>
    </form>
  );
}

/**
 * One incident in one place: its state and the acts on it (the same buttons as the lists), and its
 * story in time order: what the rules saw, who acknowledged or resolved it, and every try of every
 * notification with the receiver's answer. An act costs its one request: its answer is applied to
 * what is shown, and the live event of that same change reads nothing again. Live: the incident is
 * read again when someone else changes it, its deliveries when a channel is tried.
 */
export function IncidentPage({ id, user }: { id: string; user: User }) {
  const { value: loaded, error, reload, update } = useResource((key) => load(key, user.customerId === null), id);
  const ref = loaded?.incident.publicId ?? id;
  const mine = (event: LiveEvent) =>
    event.kind !== 'monitor.stateChanged' && (event.data.incidentId === id || event.data.incidentId === ref);
  useLiveReload(
    () =>
      void ok(api.GET('/api/incidents/{id}', { params: { path: { id: ref } } }))
        .then((incident) => update((current) => ({ ...current, incident })))
        .catch(() => reload()),
    (event) => event.kind !== 'notification.deliveryAttempted' && mine(event) && !(loaded && shows(loaded.incident, event)),
  );
  useLiveReload(
    () => void readDeliveries(ref).then((deliveries) => update((current) => ({ ...current, deliveries }))),
    (event) =>
      event.kind === 'notification.deliveryAttempted' &&
      mine(event) &&
      !loaded?.deliveries.some((d) => d.id === event.data.deliveryId && d.attempts.some((a) => a.attempt >= event.data.attempt)),
  );
  if (!loaded) return <Loading error={error} what="the incident" />;
  const { incident } = loaded;
  return (
    <article aria-labelledby="incident-title">
      <h1 id="incident-title">{incident.title}</h1>
      <p class="muted">
        {incident.monitorKind ? (
          <Link to={`/monitors/${incident.monitorKind}/${incident.monitorId}`}>{incident.monitorName}</Link>
        ) : (
          'A deleted monitor'
        )}{' '}
        · started {dateTime(incident.startedAt)}
        {incident.durationSeconds !== null ? ` · lasted ${Math.round(incident.durationSeconds / 60)} min` : ''}
      </p>
      <ErrorText message={error} />
      <IncidentList
        incidents={[incident]}
        onChanged={(answer) => update((current) => ({ ...current, incident: afterAct(current.incident, answer) }))}
        user={user}
      />
      {may(user, 'incident.postUpdate') && incident.status !== 'resolved' ? (
        <UpdateForm
          incident={incident}
          onPosted={(entry) =>
            update((current) => ({ ...current, incident: { ...current.incident, timeline: [...current.incident.timeline, entry] } }))
          }
        />
      ) : null}
      <AffectedMonitors affected={incident.affectedMonitors} />
      <h2>Timeline</h2>
      <ol class="timeline" aria-label="Timeline">
        {linesOf(loaded).map((line, index) => (
          <li key={index} class={`timeline-line timeline-${line.kind}`}>
            <time dateTime={line.at}>{dateTime(line.at)}</time>
            <span>
              <LineText line={line} loaded={loaded} />
            </span>
          </li>
        ))}
      </ol>
    </article>
  );
}
