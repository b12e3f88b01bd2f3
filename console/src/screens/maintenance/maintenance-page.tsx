import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { loadCustomers, loadOverview } from '../../monitors/monitor-rows';
import type { User } from '../../session';
import { may } from '../../permissions';
import { RemoveButton } from '../customers/remove-button';
import { OccurrenceList, useOccurrences } from './occurrences';
import { targetWords } from './targets-picker';
import { ruleWords, WindowForm, type MaintenanceWindow } from './window-form';
import { spanInZone } from './zoned-time';
import './maintenance.css';

type OverviewRow = Schemas['MonitorOverviewItem'];

const STATUS_WORDS = { scheduled: 'Scheduled', in_progress: 'Running now', completed: 'Completed' } as const;

/** The next occurrences of a saved window from now on, in its zone (asked for when opened). */
function NextOccurrences({ window }: { window: MaintenanceWindow }) {
  const [from] = useState(() => new Date().toISOString());
  const { occurrences, error } = useOccurrences(
    { startTime: window.startTime, endTime: window.endTime, timezone: window.timezone, rrule: window.rrule, from },
    5,
  );
  if (error) return <ErrorText message={error} />;
  if (!occurrences) return <p role="status">Loading occurrences…</p>;
  return <OccurrenceList occurrences={occurrences} zone={window.timezone} label={`Next occurrences of ${window.title}`} />;
}

function WindowLine({
  window,
  customers,
  monitors,
  canWrite,
  onChanged,
}: {
  window: MaintenanceWindow;
  customers: Customer[];
  monitors: OverviewRow[];
  canWrite: boolean;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  const running = window.currentOccurrence;
  const next = window.nextOccurrence;
  return (
    <li class="window">
      <div class="window-head">
        <strong class="window-title">{window.title}</strong>
        <span class={`pill window-${window.status}`}>{STATUS_WORDS[window.status]}</span>
        <span class="muted">
          {ruleWords(window.rrule)} · {window.timezone} · {window.durationMinutes} min
          {window.suppressAlerts ? ' · no alerts' : ''}
          {window.excludeFromUptime ? ' · left out of uptime' : ''}
        </span>
      </div>
      {window.description ? <p class="window-description">{window.description}</p> : null}
      <p>
        {running ? `Running: ${spanInZone(running.startTime, running.endTime, window.timezone)}` : null}
        {!running && next ? `Next: ${spanInZone(next.startTime, next.endTime, window.timezone)}` : null}
        {!running && !next ? 'No occurrence is left.' : null}
      </p>
      <p class="muted">Covers: {window.targets.map((t) => targetWords(t, customers, monitors)).join(', ')}</p>
      <div class="actions">
        {window.rrule ? (
          <button type="button" class="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide next occurrences' : 'Show next occurrences'}
          </button>
        ) : null}
        {canWrite && !editing ? (
          <button type="button" class="secondary" aria-label={`Change ${window.title}`} onClick={() => setEditing(true)}>
            Change
          </button>
        ) : null}
        {canWrite ? (
          <RemoveButton
            what={window.title}
            label="Delete"
            remove={() => ok(api.DELETE('/api/maintenance-windows/{id}', { params: { path: { id: window.id } } }))}
            onRemoved={onChanged}
          />
        ) : null}
      </div>
      {open ? <NextOccurrences window={window} /> : null}
      {editing ? (
        <WindowForm
          window={window}
          customers={customers}
          monitors={monitors}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
    </li>
  );
}

/** Maintenance windows of the caller's scope, their next occurrences in their own zones, and (for writers) the form. */
export function MaintenancePage({ user }: { user: User }) {
  const [windows, setWindows] = useState<MaintenanceWindow[] | null>(null);
  const [customers, setCustomers] = useState<Customer[]>([]);
  const [monitors, setMonitors] = useState<OverviewRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const page = await ok(api.GET('/api/maintenance-windows', { params: { query: { perPage: 200 } } }));
      setWindows(page.items);
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => {
    void load();
    // Names of what windows cover; the monitors list also feeds the form's search.
    void loadCustomers().then(setCustomers, () => setCustomers([]));
    void loadOverview(() => {}).then(setMonitors, () => setMonitors([]));
  }, [load]);
  const canWrite = may(user, 'maintenanceWindow.update');
  return (
    <section aria-labelledby="maintenance-title">
      <h1 id="maintenance-title">Maintenance windows</h1>
      <p class="muted">While a window runs, checks go on and are recorded; it can hold back alerts and leave the time out of uptime.</p>
      <ErrorText message={error} />
      {windows === null && !error ? <p role="status">Loading maintenance windows…</p> : null}
      {windows?.length === 0 ? <p>No maintenance windows.</p> : null}
      <ul class="plain-list" aria-label="Maintenance windows">
        {windows?.map((w) => (
          <WindowLine
            key={`${w.id}-${w.updatedAt}`}
            window={w}
            customers={customers}
            monitors={monitors}
            canWrite={canWrite}
            onChanged={() => void load()}
          />
        ))}
      </ul>
      {may(user, 'maintenanceWindow.create') ? (
        <WindowForm window={null} customers={customers} monitors={monitors} onSaved={() => void load()} />
      ) : null}
    </section>
  );
}
