import { ErrorText } from '../../components/field';
import { Link } from '../../components/link';
import type { User } from '../../session';
import { AlertSources } from './alert-sources';
import { EscalationPolicies } from './escalation-policies';
import { ImIncidents } from './im-incidents';
import { imStateOf } from './im-state';
import { OnCallNow } from './on-call-now';
import { usePeople } from './people';
import { Schedules } from './schedules';
import { Teams } from './teams';
import './on-call.css';

const SECTIONS = [
  { key: 'now', label: 'On call now' },
  { key: 'schedules', label: 'Schedules' },
  { key: 'incidents', label: 'Incidents' },
  { key: 'escalation', label: 'Escalation policies' },
  { key: 'sources', label: 'Alert sources' },
  { key: 'teams', label: 'Teams' },
] as const;

/**
 * Incident management in one place, a section at a time (each its own address). Where it is off, or
 * not for the user's role, the page says so and calls no IM route.
 */
export function OnCallPage({ section, user }: { section: string; user: User }) {
  const state = imStateOf(user);
  const current = SECTIONS.find((s) => s.key === section);
  return (
    <section aria-labelledby="on-call-title">
      <h1 id="on-call-title">On-call</h1>
      {state === 'denied' ? (
        <ErrorText message="Incident management is for organization-wide administrators, editors and responders." />
      ) : state === 'off' ? (
        <p class="note">Incident management is not switched on for this organization.</p>
      ) : !current ? (
        <ErrorText message="No such part of on-call." />
      ) : (
        <Sections current={current} user={user} />
      )}
    </section>
  );
}

function Sections({ current, user }: { current: (typeof SECTIONS)[number]; user: User }) {
  const people = usePeople(user);
  return (
    <>
      <nav class="tabs" aria-label="On-call sections">
        {SECTIONS.map((s) => (
          <Link key={s.key} to={s.key === 'now' ? '/on-call' : `/on-call/${s.key}`} class={s.key === current.key ? 'tab active' : 'tab'}>
            {s.label}
          </Link>
        ))}
      </nav>
      <h2 class="on-call-section">{current.label}</h2>
      {current.key === 'now' ? <OnCallNow people={people} /> : null}
      {current.key === 'schedules' ? <Schedules people={people} /> : null}
      {current.key === 'incidents' ? <ImIncidents people={people} user={user} /> : null}
      {current.key === 'escalation' ? <EscalationPolicies people={people} /> : null}
      {current.key === 'sources' ? <AlertSources /> : null}
      {current.key === 'teams' ? <Teams people={people} /> : null}
    </>
  );
}
