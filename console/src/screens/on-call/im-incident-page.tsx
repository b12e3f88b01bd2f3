import { ApiError, api, ok } from '../../api/client';
import { ErrorText } from '../../components/field';
import { ago, dateTime } from '../../components/format';
import { Link } from '../../components/link';
import { Loading } from '../../components/loading';
import { useResource } from '../../components/use-resource';
import type { User } from '../../session';
import { ImIncidentActs } from './im-incident-acts';
import { imStateOf } from './im-state';
import { afterImAct, ImTimeline, respondersOf, type ImDetail } from './im-timeline';
import { usePeople, type People } from './people';
import './on-call.css';

interface Loaded {
  incident: ImDetail;
  team: string | null;
  policy: string | null;
}
/** What the page read: the incident with what names it, or the API's "not found" (missing, or another organization's). */
type Read = Loaded | { missing: string };

async function load(id: string): Promise<Read> {
  let incident: ImDetail;
  try {
    incident = await ok(api.GET('/api/im/incidents/{id}', { params: { path: { id } } }));
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 404) return { missing: failure.message };
    throw failure;
  }
  // Names of its team and escalation policy: shown when the caller may read them, else left out.
  const [team, policy] = await Promise.all([
    incident.teamId ? ok(api.GET('/api/im/teams/{id}', { params: { path: { id: incident.teamId } } })).catch(() => null) : null,
    incident.escalationPolicyId
      ? ok(api.GET('/api/escalation-config/{id}', { params: { path: { id: incident.escalationPolicyId } } })).catch(() => null)
      : null,
  ]);
  return { incident, team: team?.name ?? null, policy: policy?.name ?? null };
}

const back = <Link to="/on-call/incidents">All on-call incidents</Link>;

/**
 * One incident of incident management (GET /api/im/incidents/{id}), for the responder on a phone:
 * its title once, status, severity, team and escalation policy, who acknowledged it and who was
 * added or paged, the acts it takes (im-incident-acts) and its timeline. Where incident management
 * is off or not for the user's role, the page says so and reads nothing; an incident the API does
 * not find (another organization's answers the same) shows "not found".
 */
export function ImIncidentScreen({ id, user }: { id: string; user: User }) {
  const state = imStateOf(user);
  if (state !== 'on')
    return (
      <section aria-labelledby="im-incident-title">
        <h1 id="im-incident-title">On-call incident</h1>
        {state === 'denied' ? (
          <ErrorText message="Incident management is for organization-wide administrators, editors and responders." />
        ) : (
          <p class="note">Incident management is not switched on for this organization.</p>
        )}
      </section>
    );
  return <ImIncidentPage id={id} user={user} />;
}

function ImIncidentPage({ id, user }: { id: string; user: User }) {
  const people = usePeople(user);
  const { value, error, update } = useResource(load, id);
  if (!value) return <Loading error={error} what="the incident" />;
  if ('missing' in value)
    return (
      <section aria-labelledby="im-incident-title">
        <h1 id="im-incident-title">Incident not found</h1>
        <ErrorText message={value.missing} />
        <p>{back}</p>
      </section>
    );
  const { incident } = value;
  return (
    <article aria-labelledby="im-incident-title" class="im-incident">
      <p class="im-back">{back}</p>
      <h1 id="im-incident-title" class="incident-title">
        {incident.title}
      </h1>
      <p class="im-state">
        <span class={`pill pill-${incident.status === 'triggered' ? 'open' : incident.status}`}>{incident.status}</span>{' '}
        <span class={`pill im-severity im-severity-${incident.severity}`}>{incident.severity}</span>
      </p>
      <ErrorText message={error} />
      <ImIncidentActs
        incident={incident}
        people={people}
        onActed={(answer, entries) =>
          update((current) =>
            'missing' in current ? current : { ...current, incident: afterImAct(current.incident, answer, entries, user.id) },
          )
        }
      >
        <Facts loaded={value} people={people} />
      </ImIncidentActs>
      {incident.description ? <p class="im-description">{incident.description}</p> : null}
      <h2>Timeline</h2>
      <ImTimeline incident={incident} people={people} />
    </article>
  );
}

/** What it is and who is on it, as a list of terms: what a responder reads before acting. */
function Facts({ loaded, people }: { loaded: Loaded; people: People }) {
  const { incident } = loaded;
  const { added, paged } = respondersOf(incident);
  const snoozed = incident.snoozedUntil && Date.parse(incident.snoozedUntil) > Date.now();
  const facts: Array<[string, preact.ComponentChildren]> = [
    ['Team', incident.teamId ? (loaded.team ?? `team ${incident.teamId.slice(0, 8)}`) : 'No team (open to every on-call user)'],
    [
      'Escalation policy',
      incident.escalationPolicyId ? (loaded.policy ?? `policy ${incident.escalationPolicyId.slice(0, 8)}`) : 'None: no one is paged',
    ],
    ['Paged', paged.length > 0 ? `level ${paged.join(', ')} of its escalation policy` : 'no level paged yet'],
    [
      'Acknowledged',
      incident.acknowledgedByUserId
        ? `by ${people.nameOf(incident.acknowledgedByUserId)}, ${dateTime(incident.acknowledgedAt)}`
        : 'not yet',
    ],
    ['Responders', added.length > 0 ? added.map((userId) => people.nameOf(userId)).join(', ') : 'none added'],
    [
      'Occurrences',
      `${incident.occurrenceCount}, first ${dateTime(incident.createdAt)}, last ${ago(incident.lastOccurrenceAt)}${incident.source ? ` · from ${incident.source}` : ''}`,
    ],
  ];
  if (snoozed) facts.push(['Snoozed', `until ${dateTime(incident.snoozedUntil)}`]);
  if (incident.resolvedAt)
    facts.push([
      'Resolved',
      `${incident.resolvedByUserId ? `by ${people.nameOf(incident.resolvedByUserId)}, ` : ''}${dateTime(incident.resolvedAt)}`,
    ]);
  if (incident.mergedIntoId)
    facts.push(['Merged into', <Link to={`/on-call/incidents/${encodeURIComponent(incident.mergedIntoId)}`}>the incident it joined</Link>]);
  if (incident.monitorOrigin)
    facts.push([
      'From a monitor',
      <Link to={`/incidents/${encodeURIComponent(incident.monitorOrigin.incidentId)}`}>its monitor incident</Link>,
    ]);
  return (
    <dl class="im-facts">
      {facts.map(([term, value]) => (
        <div key={term} class="im-fact">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
