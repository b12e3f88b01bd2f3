import { useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { ago, dateTime } from '../../components/format';
import { Link } from '../../components/link';
import { IM_BUTTON_ACTS, offered, type ImButtonAct } from './im-acts';
import type { People } from './people';
import { useLoaded } from './use-loaded';

type ImIncident = Schemas['ImIncident'];
const FILTERS = [
  { value: 'triggered,acknowledged', label: 'Open' },
  { value: 'resolved,merged', label: 'Closed' },
] as const;
const LIST_ACTS = IM_BUTTON_ACTS.filter((act) => act.inList);

/**
 * Incident management's own incidents (GET /api/im/incidents): alerts from sources and events, and
 * monitor incidents routed there. They differ from monitor incidents (triggered / acknowledged /
 * resolved / merged, severity, occurrences, snooze), so they have their own list. Acts: acknowledge,
 * resolve, snooze an hour, and escalate now (page the next level of its escalation policy at once),
 * each shown when the incident's `can` (the API's gates: status, team, role) allows it. Each title opens the incident's page
 * (im-incident-page: its timeline, responders, merging). An act costs its one request: the
 * list shows its answer. Refusals (team membership, a concurrent change) are shown at the incident.
 */
export function ImIncidents({ people }: { people: People }) {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]['value']>(FILTERS[0].value);
  const { data, error, reload, set } = useLoaded(
    () => ok(api.GET('/api/im/incidents', { params: { query: { status: filter, perPage: 100 } } })),
    [filter],
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const [escalated, setEscalated] = useState<Record<string, string>>({});
  const act = async (incident: ImIncident, what: ImButtonAct) => {
    setBusy(incident.id);
    try {
      const answer = await what.request(incident.id);
      setRefusals(({ [incident.id]: _gone, ...rest }) => rest);
      if (what.can === 'escalate')
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
          const acts = offered(incident, LIST_ACTS);
          const snoozed = incident.snoozedUntil && Date.parse(incident.snoozedUntil) > Date.now();
          return (
            <li key={incident.id} class="incident">
              <div class="incident-head">
                <span class={`pill pill-${incident.status === 'triggered' ? 'open' : incident.status}`}>{incident.status}</span>{' '}
                <Link to={`/on-call/incidents/${encodeURIComponent(incident.id)}`} class="incident-title">
                  {incident.title}
                </Link>
              </div>
              <p class="incident-meta muted">
                {incident.severity}
                {incident.source ? ` · from ${incident.source}` : ''} · {incident.occurrenceCount} occurrence
                {incident.occurrenceCount === 1 ? '' : 's'} · last {ago(incident.lastOccurrenceAt)}
                {incident.acknowledgedByUserId ? ` · acknowledged by ${people.nameOf(incident.acknowledgedByUserId)}` : ''}
                {snoozed ? ` · snoozed until ${dateTime(incident.snoozedUntil)}` : ''}
              </p>
              {acts.length > 0 ? (
                <div class="actions">
                  {acts.map((what) => (
                    <button
                      key={what.can}
                      type="button"
                      class={what.secondary ? 'secondary' : undefined}
                      disabled={busy === incident.id}
                      onClick={() => void act(incident, what)}
                      aria-label={what.labelFor(incident.title)}
                    >
                      {what.label}
                    </button>
                  ))}
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
