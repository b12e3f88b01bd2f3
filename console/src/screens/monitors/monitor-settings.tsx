import { useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { dateTime } from '../../components/format';
import type { AnyMonitor } from '../../monitors/monitor-api';
import { COMMON_FIELDS, KIND_FIELDS, valuesOf } from '../../monitors/monitor-kinds';
import type { MonitorKind } from '../../monitors/monitor-rows';
import './monitors.css';

type Window = Schemas['MaintenanceWindow'];

/** A monitor's settings as the API holds them, with the labels of its form (secrets only as "stored"). */
export function MonitorSettings({ kind, monitor }: { kind: MonitorKind; monitor: AnyMonitor }) {
  const values = valuesOf(kind, monitor);
  const rows: Array<[string, string]> = [];
  for (const spec of [...KIND_FIELDS[kind], ...COMMON_FIELDS]) {
    if (spec.secret || spec.name === 'name' || (spec.when && !spec.when(values))) continue;
    const value = values[spec.name];
    rows.push([spec.label, typeof value === 'boolean' ? (value ? 'Yes' : 'No') : value ? value.replace(/\n/g, ', ') : '—']);
  }
  if ('hasCredentials' in monitor && monitor.checkMode !== 'tcp') rows.push(['Login', monitor.hasCredentials ? 'Stored' : 'None']);
  if ('effectivePort' in monitor && monitor.effectivePort && monitor.effectivePort !== monitor.port)
    rows.push(['Port used', String(monitor.effectivePort)]);
  if ('heartbeatUrl' in monitor && monitor.heartbeatUrl) rows.push(['Heartbeat URL', monitor.heartbeatUrl]);
  if ('lastHeartbeatAt' in monitor && monitor.monitoringType === 'heartbeat')
    rows.push(['Last heartbeat', dateTime(monitor.lastHeartbeatAt)]);
  rows.push(['Locations', monitor.locations.join(', ') || 'none']);
  rows.push(['Tags', monitor.tags.map((t) => t.name).join(', ') || 'none']);
  rows.push(['Managed by', monitor.managementType === 'managed' ? 'the organization' : 'the customer (self service)']);
  return (
    <dl class="settings">
      {rows.map(([label, value]) => (
        <div key={label} class="setting">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const when = (window: Window): string => {
  const span = window.currentOccurrence ?? window.nextOccurrence;
  if (!span) return 'No occurrence left';
  const prefix = window.currentOccurrence ? 'Now, until' : 'Next:';
  return window.currentOccurrence
    ? `${prefix} ${dateTime(span.endTime)}`
    : `${prefix} ${dateTime(span.startTime)} – ${dateTime(span.endTime)}`;
};

/** The maintenance windows covering the monitor (directly or through its customer), read-only. */
export function MonitorMaintenance({ id }: { id: string }) {
  const [windows, setWindows] = useState<Window[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    ok(api.GET('/api/maintenance-windows', { params: { query: { websiteId: id, perPage: 50 } } })).then(
      (page) => setWindows(page.items),
      (failure: unknown) => setError(describe(failure)),
    );
  }, [id]);
  if (error) return <ErrorText message={error} />;
  if (!windows) return <p role="status">Loading…</p>;
  if (windows.length === 0) return <p>No maintenance window covers it.</p>;
  return (
    <ul class="plain-list maintenance-list" aria-label="Maintenance windows">
      {windows.map((window) => (
        <li key={window.id}>
          <strong>{window.title}</strong> <span class={`request-status window-${window.status}`}>{window.status.replace('_', ' ')}</span>
          <p class="monitor-meta">
            {when(window)} ({window.timezone}){window.rrule ? ` · repeats: ${window.rrule}` : ''}
            {window.suppressAlerts ? ' · alerts held' : ''}
          </p>
        </li>
      ))}
    </ul>
  );
}
