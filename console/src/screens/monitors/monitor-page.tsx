import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type CheckResult, type Incident, type UptimeStats } from '../../api/client';
import { ErrorText } from '../../components/field';
import { dateTime, ms, percent } from '../../components/format';
import { StateBadge } from '../../components/state-badge';
import { Link } from '../../components/link';
import { getMonitor, resultsPath, type AnyMonitor } from '../../monitors/monitor-api';
import { KIND_LABELS } from '../../monitors/monitor-kinds';
import { consoleState, unknownWhy, type MonitorKind } from '../../monitors/monitor-rows';
import { useLiveReload } from '../../monitors/use-live-reload';
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

/** One monitor: its state, uptime, check history with each failure's evidence, its incidents, and "check now". */
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
  useLiveReload(
    () => void reload(),
    (event) => event.kind !== 'notification.deliveryAttempted' && event.data.monitorId === id,
  );

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
        {may(user, 'monitor.check') ? <CheckNow kind={kind} id={id} onResult={() => void reload()} /> : null}
        <MonitorActions
          kind={kind}
          id={id}
          name={monitor.name}
          paused={monitor.status === 'paused'}
          pauses={may(user, 'monitor.update')}
          deletes={may(user, 'monitor.delete')}
          onChanged={() => void reload()}
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
      <IncidentList incidents={incidents} onChanged={() => void reload()} user={user} />
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
