import { useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { ago, dateTime } from '../../components/format';
import { may } from '../../permissions';
import type { User } from '../../session';
import type { People } from './people';
import { useLoaded } from './use-loaded';

type ImIncident = Schemas['ImIncident'];
type Act = 'acknowledge' | 'resolve' | 'snooze' | 'escalate';
const FILTERS = [
  { value: 'triggered,acknowledged', label: 'Open' },
  { value: 'resolved,merged', label: 'Closed' },
] as const;
const HOUR = 3_600_000;

/** An act's one request; its answer is the incident after it. */
function request(incident: ImIncident, what: Act): Promise<ImIncident> {
  const params = { path: { id: incident.id } };
  if (what === 'acknowledge') return ok(api.POST('/api/im/incidents/{id}/acknowledge', { params }));
  if (what === 'resolve') return ok(api.POST('/api/im/incidents/{id}/resolve', { params }));
  if (what === 'escalate') return ok(api.POST('/api/im/incidents/{id}/escalate', { params }));
  return ok(api.POST('/api/im/incidents/{id}/snooze', { params, body: { snoozedUntil: new Date(Date.now() + HOUR).toISOString() } }));
}

/**
 * Incident management's own incidents (GET /api/im/incidents): alerts from sources and events, and
 * monitor incidents routed there. They differ from monitor incidents (triggered / acknowledged /
 * resolved / merged, severity, occurrences, snooze), so they have their own list. Acts: acknowledge,
 * resolve, snooze an hour, and escalate now (page the next level of its escalation policy at once;
 * shown when the session's `can` allows `imIncident.escalate`). An act costs its one request: the
 * list shows its answer. Refusals (team membership, a concurrent change) are shown at the incident.
 */
export function ImIncidents({ people, user }: { people: People; user: User }) {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]['value']>(FILTERS[0].value);
  const { data, error, reload, set } = useLoaded(
    () => ok(api.GET('/api/im/incidents', { params: { query: { status: filter, perPage: 100 } } })),
    [filter],
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const [escalated, setEscalated] = useState<Record<string, string>>({});
  const escalates = may(user, 'imIncident.escalate');
  const act = async (incident: ImIncident, what: Act) => {
    setBusy(incident.id);
    try {
      const answer = await request(incident, what);
      setRefusals(({ [incident.id]: _gone, ...rest }) => rest);
      if (what === 'escalate')
        setEscalated((current) => ({
          ...current,
          [incident.id]: answer.escalationPolicyId
            ? `Escalated ${dateTime(answer.updatedAt)}: the next level of its escalation policy was paged.`
            : 'Escalated: it has no escalation policy, so no one was paged.',
        }));
      // The answer is the incident after the act: shown in its place (gone from this tab once it closed).
      const stays = filter.split(',').includes(answer.status);
      set(
        (current) =>
          current && { ...current, items: current.items.flatMap((item) => (item.id !== answer.id ? [item] : stays ? [answer] : [])) },
      );
    } catch (failure) {
      setRefusals((current) => ({ ...current, [incident.id]: describe(failure) }));
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <div class="actions">
        <div class="tabs" role="group" aria-label="Which incidents">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              class={filter === f.value ? 'tab active' : 'tab'}
              aria-pressed={filter === f.value}
              onClick={() => setFilter(f.value)}
            >
              {f.label}
            </button>
          ))}
        </div>
        <button type="button" onClick={() => void reload()}>
          Refresh
        </button>
      </div>
      <ErrorText message={error} />
      {data === null && !error ? <p role="status">Loading incidents…</p> : null}
      {data?.items.length === 0 ? <p>No incidents here.</p> : null}
      <ul class="incident-list" aria-label="Incident management incidents">
        {data?.items.map((incident) => {
          const open = incident.status === 'triggered' || incident.status === 'acknowledged';
          const snoozed = incident.snoozedUntil && Date.parse(incident.snoozedUntil) > Date.now();
          return (
            <li key={incident.id} class="incident">
              <div class="incident-head">
                <span class={`pill pill-${incident.status === 'triggered' ? 'open' : incident.status}`}>{incident.status}</span>{' '}
                <strong class="incident-title">{incident.title}</strong>
              </div>
              <p class="incident-meta muted">
                {incident.severity}
                {incident.source ? ` · from ${incident.source}` : ''} · {incident.occurrenceCount} occurrence
                {incident.occurrenceCount === 1 ? '' : 's'} · last {ago(incident.lastOccurrenceAt)}
                {incident.acknowledgedByUserId ? ` · acknowledged by ${people.nameOf(incident.acknowledgedByUserId)}` : ''}
                {snoozed ? ` · snoozed until ${dateTime(incident.snoozedUntil)}` : ''}
              </p>
              {open ? (
                <div class="actions">
                  {incident.status === 'triggered' ? (
                    <button
                      type="button"
                      disabled={busy === incident.id}
                      onClick={() => void act(incident, 'acknowledge')}
                      aria-label={`Acknowledge ${incident.title}`}
                    >
                      Acknowledge
                    </button>
                  ) : null}
                  <button
                    type="button"
                    disabled={busy === incident.id}
                    onClick={() => void act(incident, 'snooze')}
                    aria-label={`Snooze an hour: ${incident.title}`}
                  >
                    Snooze an hour
                  </button>
                  {escalates ? (
                    <button
                      type="button"
                      disabled={busy === incident.id}
                      onClick={() => void act(incident, 'escalate')}
                      aria-label={`Escalate now: ${incident.title}`}
                    >
                      Escalate now
                    </button>
                  ) : null}
                  <button
                    type="button"
                    disabled={busy === incident.id}
                    onClick={() => void act(incident, 'resolve')}
                    aria-label={`Resolve ${incident.title}`}
                  >
                    Resolve
                  </button>
                </div>
              ) : null}
              {escalated[incident.id] ? (
                <p role="status" class="note">
                  {escalated[incident.id]}
                </p>
              ) : null}
              <ErrorText message={refusals[incident.id]} />
            </li>
          );
        })}
      </ul>
    </>
  );
}
