import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, ok, type CheckResult, type Incident, type UptimeStats } from '../../api/client';
import { ErrorText } from '../../components/field';
import { dateTime, ms, percent } from '../../components/format';
import { StateBadge } from '../../components/state-badge';
import { Link } from '../../components/link';
import { getMonitor, resultsPath, type AnyMonitor } from '../../monitors/monitor-api';
import { KIND_LABELS } from '../../monitors/monitor-kinds';
import { consoleState, unknownWhy, type MonitorKind } from '../../monitors/monitor-rows';
import { useLiveReload } from '../../monitors/use-live-reload';
import type { LiveEvent } from '../../api/live-events';
import type { User } from '../../session';
import { IncidentList } from '../incidents/incident-list';
import { CheckHistory } from './check-history';
import { CheckNow } from './check-now';
import { MonitorActions } from './monitor-actions';
import { MonitorMaintenance, MonitorSettings } from './monitor-settings';
import { may } from '../../permissions';
import { ResponseChart } from './response-chart';
import { MonitorDependencies } from './dependencies';

type Monitor = AnyMonitor;
const PERIODS = ['24h', '7d', '30d', '90d'] as const;

interface Loaded {
  monitor: Monitor;
  history: CheckResult[];
  uptime: UptimeStats[];
  incidents: Incident[];
  inMaintenance: boolean;
}

async function load(kind: MonitorKind, id: string): Promise<Loaded> {
  const monitor = await getMonitor(kind, id);
  const [history, uptime, incidents, maintenance] = await Promise.all([
    ok(api.GET(resultsPath(kind, 'check-history'), { params: { path: { id }, query: { perPage: 50 } } })),
    Promise.all(PERIODS.map((period) => ok(api.GET(resultsPath(kind, 'uptime-stats'), { params: { path: { id }, query: { period } } })))),
    ok(api.GET('/api/incidents', { params: { query: { monitorId: monitor.id, perPage: 20 } } })),
    ok(api.GET('/api/maintenance-windows/check/{websiteId}', { params: { path: { websiteId: id } } })),
  ]);
  return { monitor, history: history.items, uptime, incidents: incidents.items, inMaintenance: maintenance.inMaintenance };
}

/** The state a live event names (`monitor.stateChanged`'s `state`) of the monitor as shown. */
function eventStateOf(monitor: Monitor): 'paused' | 'down' | 'unknown' | 'up' {
  if (monitor.status === 'paused') return 'paused';
  const { status } = monitor.currentState;
  return status === 'down' || status === 'unknown' ? status : 'up';
}

/** Whether the page already shows what a live event tells (its own act's answer showed it). */
function showsEvent(loaded: Loaded, event: LiveEvent): boolean {
  if (event.kind === 'monitor.stateChanged') return eventStateOf(loaded.monitor) === event.data.state;
  if (event.kind === 'incident.updated' || event.kind === 'notification.deliveryAttempted') return false;
  return loaded.incidents.some((incident) => incident.publicId === event.data.incidentId && incident.status === event.data.status);
}

/**
 * The history with "Check now"'s answer first, once: the live event of the state it changed may
 * already have read the history again, answer included.
 */
const withResult = (history: CheckResult[], result: CheckResult): CheckResult[] =>
  history.some((r) => r.checkedAt === result.checkedAt && r.location === result.location) ? history : [result, ...history];

/**
 * One monitor: its state, uptime, check history with each failure's evidence, its incidents, and
 * "check now". An act costs its one request: pausing, resuming, acknowledging or resolving applies
 * the answer to what is shown (and check now adds the result it waited for); the live event of that
 * same change reads nothing again. Someone else's change reads the page again.
 */
export function MonitorPage({ kind, id, user }: { kind: MonitorKind; id: string; user: User }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setLoaded(await load(kind, id));
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, [kind, id]);
  useEffect(() => void reload(), [reload]);
  const shown = useRef(loaded);
  shown.current = loaded;
  useLiveReload(
    () => void reload(),
    // The event of a change the page already shows (its own act's answer) reads nothing again.
    (event) =>
      event.kind !== 'notification.deliveryAttempted' &&
      (event.data.monitorId === id || event.data.monitorId === shown.current?.monitor.publicId) &&
      !(shown.current && showsEvent(shown.current, event)),
  );
  const update = (change: (current: Loaded) => Loaded) => setLoaded((current) => (current ? change(current) : current));

  if (!loaded) return error ? <ErrorText message={error} /> : <p role="status">Loading the monitor…</p>;
  const { monitor, history, uptime, incidents } = loaded;
  const state = consoleState(monitor, loaded.inMaintenance, history[0] ?? null);
  const why = unknownWhy(monitor.currentState);
  const target =
    'url' in monitor
      ? (monitor.url ?? monitor.monitoringType)
      : `${monitor.hostname}${'effectivePort' in monitor && monitor.effectivePort ? `:${monitor.effectivePort}` : ''}`;
  return (
    <article aria-labelledby="monitor-title">
      <header class="monitor-header">
        <h1 id="monitor-title">{monitor.name}</h1>
        <StateBadge state={state} />
      </header>
      <p class="monitor-target">
        {KIND_LABELS[kind]} · {target}
      </p>
      {why ? <p class="note">{why}</p> : null}
      <ErrorText message={error} />
      <p class="monitor-meta">
        Every {monitor.checkInterval} min from {monitor.locations.join(', ') || 'no location'} · last response{' '}
        {ms(history[0]?.responseTimeMs)}
      </p>
      <div class="monitor-tools">
        {may(user, 'monitor.check') ? (
          <CheckNow
            kind={kind}
            id={id}
            onResult={(result) => update((current) => ({ ...current, history: withResult(current.history, result) }))}
          />
        ) : null}
        <MonitorActions
          kind={kind}
          id={id}
          name={monitor.name}
          paused={monitor.status === 'paused'}
          pauses={may(user, 'monitor.update')}
          deletes={may(user, 'monitor.delete')}
          onChanged={(answer) => update((current) => ({ ...current, monitor: answer }))}
        />
        {may(user, 'monitor.update') ? (
          <Link to={`/monitors/${kind}/${id}/edit`} class="button-link">
            Edit settings
          </Link>
        ) : null}
      </div>
      <MonitorDependencies
        dependsOn={monitor.dependsOn}
        root={monitor.currentState.status === 'dependencyDown' ? (monitor.currentState.dependencyRoot ?? null) : null}
      />
      <ResponseChart kind={kind} id={id} refresh={history[0] ? Date.parse(history[0].checkedAt) : 0} />
      <h2>Uptime</h2>
      <dl class="uptime">
        {uptime.map((stats) => (
          <div key={stats.period} class="uptime-item">
            <dt>{stats.period}</dt>
            <dd>
              <span class="uptime-figure">{percent(stats.uptimePercent)}</span>
              <span class="uptime-since">{stats.monitoredSince ? `since ${dateTime(stats.monitoredSince)}` : 'no result yet'}</span>
              {stats.unknownPercent ? (
                <span class="uptime-since">
                  {percent(stats.uptimeOfKnownPercent)} of the observed time; {percent(stats.unknownPercent)} unknown (no result)
                </span>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
      <h2>Incidents</h2>
      <IncidentList
        incidents={incidents}
        onChanged={(answer) =>
          update((current) => ({
            ...current,
            incidents: current.incidents.map((incident) => (incident.publicId === answer.publicId ? { ...incident, ...answer } : incident)),
          }))
        }
        user={user}
      />
      <p>
        <Link to={`/service-levels?websiteId=${monitor.publicId}`}>Service level objectives of this monitor</Link>
      </p>
      <h2>Maintenance windows</h2>
      <MonitorMaintenance id={id} />
      <h2>Check history</h2>
      <CheckHistory results={history} />
      <h2>Settings</h2>
      <MonitorSettings kind={kind} monitor={monitor} />
    </article>
  );
}
