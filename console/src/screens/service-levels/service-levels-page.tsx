import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Customer } from '../../api/client';
import { ErrorText } from '../../components/field';
import { dateTime, percent } from '../../components/format';
import { Link } from '../../components/link';
import { loadTags, type Tag } from '../../monitors/monitor-api';
import { loadCustomers, type OverviewRow } from '../../monitors/monitor-rows';
import { useRoute } from '../../router';
import type { User } from '../../session';
import { may } from '../../permissions';
import { monitorPath, useMonitorRows } from '../monitors/dependencies';
import { loadObjectives, minutes, rate, statusOf, WINDOWS, type Objective, type Status } from './objectives';
import './service-levels.css';

interface Loaded {
  objectives: Objective[];
  statuses: Map<string, Status | string>;
  customers: Customer[];
  tags: Tag[];
}

async function load(): Promise<Loaded> {
  const [objectives, customers, tags] = await Promise.all([loadObjectives(), loadCustomers(), loadTags().catch(() => [])]);
  // Each objective's figures now; one failing is said on its card, not for the whole page.
  const statuses = await Promise.all(objectives.map((o) => statusOf(o.id).catch((failure: unknown) => describe(failure))));
  return { objectives, customers, tags, statuses: new Map(objectives.map((o, i) => [o.id, statuses[i]!])) };
}

/** What an objective covers, in words, with a link to the monitor or customer. */
function Subject({ objective, loaded, rows }: { objective: Objective; loaded: Loaded; rows: Map<string, OverviewRow> }) {
  const { subject } = objective;
  if (subject.type === 'website') {
    const row = rows.get(subject.websiteId);
    return row ? <Link to={monitorPath(row)}>{row.name}</Link> : <span>a monitor</span>;
  }
  const customer = loaded.customers.find((c) => c.id === subject.customerId);
  const tag = subject.tagId === null ? null : loaded.tags.find((t) => t.id === subject.tagId);
  return (
    <>
      {customer ? <Link to={`/customers/${customer.id}`}>{customer.name}</Link> : 'a customer'}
      {subject.tagId === null ? ': all its monitors' : `: monitors tagged ${tag?.name ?? 'with a tag'}`}
    </>
  );
}

function Figures({ status }: { status: Status }) {
  const { budget, burnRates } = status;
  const over = budget.leftMinutes < 0;
  return (
    <dl class="slo-figures">
      <div>
        <dt>Attainment</dt>
        <dd class={status.met === false ? 'slo-missed' : undefined}>
          {status.attainmentPercent === null ? 'nothing known yet' : `${status.attainmentPercent.toFixed(3)} %`}
          {status.met === null ? '' : status.met ? ' (met)' : ' (missed)'}
        </dd>
      </div>
      <div>
        <dt>Budget left</dt>
        <dd class={over ? 'slo-missed' : undefined}>
          {minutes(budget.leftMinutes)} of {minutes(budget.totalMinutes)} ({percent(budget.leftPercent)})
        </dd>
      </div>
      <div>
        <dt>Burn rates</dt>
        <dd>
          5 min {rate(burnRates['5m'])} · 30 min {rate(burnRates['30m'])} · 1 h {rate(burnRates['1h'])} · 6 h {rate(burnRates['6h'])}
        </dd>
      </div>
      <div>
        <dt>Unknown</dt>
        <dd>
          {minutes(status.unknownMinutes)}
          {status.maintenanceMinutes > 0 ? ` · maintenance left out: ${minutes(status.maintenanceMinutes)}` : ''} · {status.monitors}{' '}
          {status.monitors === 1 ? 'monitor' : 'monitors'}
        </dd>
      </div>
    </dl>
  );
}

function ObjectiveCard(props: { objective: Objective; loaded: Loaded; rows: Map<string, OverviewRow>; user: User; onDeleted: () => void }) {
  const { objective, loaded, rows, user, onDeleted } = props;
  const status = loaded.statuses.get(objective.id);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    try {
      await ok(api.DELETE('/api/service-levels/{id}', { params: { path: { id: objective.id } } }));
      onDeleted();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  const firing = typeof status === 'object' ? status.firing : [];
  return (
    <article class="panel slo-card" aria-labelledby={`slo-${objective.id}`}>
      <header class="slo-head">
        <h2 id={`slo-${objective.id}`}>{objective.name}</h2>
        {firing.length > 0 ? (
          <span class="pill pill-failed">{firing.includes('fast') ? 'Burning fast' : 'Burning (slow rule)'}</span>
        ) : null}
      </header>
      <p class="muted">
        <Subject objective={objective} loaded={loaded} rows={rows} /> · target {objective.target} % · {WINDOWS[objective.window]}
        {objective.window === 'calendarMonth' ? ` (${objective.timezone})` : ''} · alerts {objective.alertsEnabled ? 'on' : 'off'}
      </p>
      {typeof status === 'object' ? <Figures status={status} /> : <ErrorText message={status ?? null} />}
      {objective.burnChangedAt ? (
        <p class="muted">
          Burn state {objective.burnState} since {dateTime(objective.burnChangedAt)}
        </p>
      ) : null}
      {may(user, 'serviceLevel.update') ? (
        <div class="slo-actions">
          <Link to={`/service-levels/${objective.id}/edit`} class="button-link">
            Edit {objective.name}
          </Link>
          {confirming ? (
            <>
              <button type="button" class="danger" onClick={() => void remove()}>
                Delete {objective.name} for good
              </button>
              <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" class="secondary" onClick={() => setConfirming(true)}>
              Delete {objective.name}
            </button>
          )}
        </div>
      ) : null}
      <ErrorText message={error} />
    </article>
  );
}

/**
 * Service level objectives: each with what it covers, its attainment over its window, the error
 * budget left in minutes and percent, and the burn rates (GET /api/service-levels and each one's
 * /status). `?websiteId=` shows those of one monitor (the monitor page links here).
 */
export function ServiceLevelsPage({ user }: { user: User }) {
  const { query } = useRoute();
  const websiteId = query.get('websiteId');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { rows } = useMonitorRows();
  const reload = useCallback(async () => {
    try {
      setLoaded(await load());
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => void reload(), [reload]);
  const byId = new Map((rows ?? []).map((row) => [row.publicId, row]));
  const shown = (loaded?.objectives ?? []).filter((o) => !websiteId || (o.subject.type === 'website' && o.subject.websiteId === websiteId));
  const monitor = websiteId ? byId.get(websiteId) : undefined;
  return (
    <section aria-labelledby="service-levels-title">
      <h1 id="service-levels-title">Service levels</h1>
      <p class="muted">
        What each objective promises, how much of it is kept over its window, and how much error budget is left.
        {websiteId ? (
          <>
            {' '}
            Showing the objectives of {monitor ? monitor.name : 'one monitor'} · <Link to="/service-levels">show all</Link>
          </>
        ) : null}
      </p>
      {may(user, 'serviceLevel.create') ? (
        <p>
          <Link to={websiteId ? `/service-levels/new?websiteId=${websiteId}` : '/service-levels/new'} class="button-link">
            Add an objective
          </Link>
        </p>
      ) : null}
      <ErrorText message={error} />
      {!loaded ? (
        error ? null : (
          <p role="status">Loading the objectives…</p>
        )
      ) : shown.length === 0 ? (
        <p>No objective yet.</p>
      ) : (
        <div class="slo-list">
          {shown.map((objective) => (
            <ObjectiveCard
              key={objective.id}
              objective={objective}
              loaded={loaded}
              rows={byId}
              user={user}
              onDeleted={() => void reload()}
            />
          ))}
        </div>
      )}
    </section>
  );
}
