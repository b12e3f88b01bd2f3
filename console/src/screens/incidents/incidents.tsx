import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, ok, type Incident, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { useLiveReload } from '../../monitors/use-live-reload';
import type { User } from '../../session';
import { IncidentList } from './incident-list';

type Listed = Schemas['IncidentListItem'];

const FILTERS = [
  { value: 'active', label: 'Open and acknowledged' },
  { value: 'resolved', label: 'Resolved' },
] as const;

/** Incidents of the caller's scope: open and acknowledged ones first; acknowledge and resolve; live. */
export function Incidents({ user }: { user: User }) {
  const [filter, setFilter] = useState<'active' | 'resolved'>('active');
  const [incidents, setIncidents] = useState<Listed[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const statuses = filter === 'active' ? (['open', 'acknowledged'] as const) : (['resolved'] as const);
      const pages = await Promise.all(
        statuses.map((status) => ok(api.GET('/api/incidents', { params: { query: { status, perPage: 100 } } }))),
      );
      const found = pages.flatMap((p) => p.items).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
      setIncidents(found);
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, [filter]);
  useEffect(() => void load(), [load]);
  const shown = useRef(incidents);
  shown.current = incidents;
  useLiveReload(
    () => void load(),
    // The event of a change this screen already shows (its own act's answer) reads nothing again.
    (event) => {
      if (event.kind === 'monitor.stateChanged' || event.kind === 'notification.deliveryAttempted') return false;
      const { incidentId, status } = event.data;
      return !shown.current?.some((item) => item.publicId === incidentId && item.status === status);
    },
  );
  const changed = (incident: Incident) =>
    setIncidents((list) =>
      (list ?? [])
        .map((item) => (item.publicId === incident.publicId ? { ...item, ...incident } : item))
        .filter((item) => (filter === 'active') === (item.status !== 'resolved')),
    );
  return (
    <section aria-labelledby="incidents-title">
      <h1 id="incidents-title">Incidents</h1>
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
      <ErrorText message={error} />
      {incidents === null && !error ? <p role="status">Loading incidents…</p> : null}
      {incidents ? <IncidentList incidents={incidents} onChanged={changed} user={user} /> : null}
    </section>
  );
}
