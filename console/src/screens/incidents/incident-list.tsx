import { useState } from 'preact/hooks';
import { api, describe, ok, type Incident } from '../../api/client';
import { dateTime } from '../../components/format';
import { Link } from '../../components/link';
import { may } from '../../permissions';
import type { User } from '../../session';

/** An incident as GET /api/incidents lists it: with its monitor's name and kind (null once the monitor is deleted). */
type Listed = Incident & { monitorName?: string | null; monitorKind?: string | null };

/** The monitor an incident is about, linked to its page: nothing when the incident came without it. */
function MonitorOf({ incident }: { incident: Listed }) {
  if (incident.monitorName === undefined) return null;
  if (!incident.monitorKind) return <>A deleted monitor · </>;
  return (
    <>
      <Link to={`/monitors/${incident.monitorKind}/${incident.monitorId}`}>{incident.monitorName}</Link> ·{' '}
    </>
  );
}

/** Incidents with their acknowledge and resolve buttons; a refusal is shown beside the incident it concerns. */
export function IncidentList({
  incidents,
  onChanged,
  user,
  titled = true,
}: {
  incidents: readonly Listed[];
  /** After an act: the incident as the API answered it (one act, one request: the screen updates from it, reading nothing again). */
  onChanged: (changed: Incident) => void;
  /** Whose buttons: each is shown only when the session's `can` lets the user take its act. */
  user: User;
  /** Whether each card shows its incident's title, monitor and times (false on the incident's own page: its heading and timeline say them). */
  titled?: boolean;
}) {
  const acknowledges = may(user, 'incident.acknowledge');
  const resolves = may(user, 'incident.resolve');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const act = async (incident: Incident, action: 'acknowledge' | 'resolve') => {
    setBusy(incident.publicId);
    try {
      const path = action === 'acknowledge' ? '/api/incidents/{id}/acknowledge' : '/api/incidents/{id}/resolve';
      const changed = await ok(api.POST(path, { params: { path: { id: incident.publicId } } }));
      setErrors(({ [incident.publicId]: _gone, ...rest }) => rest);
      onChanged(changed);
    } catch (failure) {
      setErrors((current) => ({ ...current, [incident.publicId]: describe(failure) }));
    } finally {
      setBusy(null);
    }
  };
  if (incidents.length === 0) return <p>No incidents.</p>;
  return (
    <ul class="incident-list" aria-label="Incidents">
      {incidents.map((incident) => (
        <li key={incident.publicId} class={`incident incident-${incident.status}`}>
          <div class="incident-head">
            <span class={`pill pill-${incident.status}`}>{incident.status}</span>
            {titled ? (
              <Link to={`/incidents/${incident.publicId}`} class="incident-title">
                {incident.title}
              </Link>
            ) : null}
          </div>
          {titled ? (
            <p class="incident-meta">
              <MonitorOf incident={incident} />
              started {dateTime(incident.startedAt)}
              {incident.acknowledgedAt ? ` · acknowledged ${dateTime(incident.acknowledgedAt)}` : ''}
              {incident.resolvedAt ? ` · resolved ${dateTime(incident.resolvedAt)}` : ''}
            </p>
          ) : null}
          {incident.cause?.message ? <p class="incident-cause">{incident.cause.message}</p> : null}
          {incident.status !== 'resolved' && (acknowledges || resolves) ? (
            <div class="actions">
              {incident.status === 'open' && acknowledges ? (
                <button type="button" disabled={busy === incident.publicId} onClick={() => void act(incident, 'acknowledge')}>
                  Acknowledge
                </button>
              ) : null}
              {resolves ? (
                <button type="button" class="secondary" disabled={busy === incident.publicId} onClick={() => void act(incident, 'resolve')}>
                  Resolve
                </button>
              ) : null}
            </div>
          ) : null}
          {errors[incident.publicId] ? (
            <p class="error" role="alert">
              {errors[incident.publicId]}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
