import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { describe, type Customer } from '../../api/client';
import { ErrorText } from '../../components/field';
import { ago, ms } from '../../components/format';
import { Link } from '../../components/link';
import { StateBadge } from '../../components/state-badge';
import {
  byUrgency,
  loadCustomers,
  loadMonitorRows,
  STATE_LABELS,
  STATES,
  type ConsoleState,
  type MonitorRow,
} from '../../monitors/monitor-rows';
import { useLiveReload } from '../../monitors/use-live-reload';

/** Every monitor of the caller's scope, down first, with counts per state, search and filters; live. */
export function Overview() {
  const [rows, setRows] = useState<MonitorRow[] | null>(null);
  const [customers, setCustomers] = useState<Customer[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [customer, setCustomer] = useState('');
  const [state, setState] = useState<ConsoleState | ''>('');

  const load = useCallback(async () => {
    try {
      const found = await loadCustomers();
      setCustomers(found);
      setRows((await loadMonitorRows(found)).sort(byUrgency));
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);
  useLiveReload(
    () => void load(),
    (event) => event.kind !== 'notification.deliveryAttempted',
  );

  const counts = useMemo(() => {
    const byState = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<ConsoleState, number>;
    for (const row of rows ?? []) byState[row.state]++;
    return byState;
  }, [rows]);
  const shown = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (rows ?? []).filter(
      (row) =>
        (!customer || String(row.customerId) === customer) &&
        (!state || row.state === state) &&
        (!term || row.name.toLowerCase().includes(term) || row.target.toLowerCase().includes(term)),
    );
  }, [rows, search, customer, state]);

  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <ErrorText message={error} />
      <ul class="counts" aria-label="Monitors per state">
        {STATES.map((s) => (
          <li key={s} class={`count count-${s}`}>
            <span class="count-number">{counts[s]}</span> {STATE_LABELS[s]}
          </li>
        ))}
      </ul>
      <div class="filters" role="search">
        <label>
          Search
          <input type="search" value={search} placeholder="Name or address" onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <label>
          Customer
          <select value={customer} onChange={(e) => setCustomer(e.currentTarget.value)}>
            <option value="">All customers</option>
            {customers.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select value={state} onChange={(e) => setState(e.currentTarget.value as ConsoleState | '')}>
            <option value="">All states</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {rows === null && !error ? <p role="status">Loading monitors…</p> : null}
      {rows !== null && rows.length === 0 ? (
        <p>
          No monitors yet. <Link to="/monitors/new">Add a monitor</Link>
        </p>
      ) : null}
      {rows !== null && rows.length > 0 && shown.length === 0 ? <p>No monitor matches these filters.</p> : null}
      <ul class="monitor-list" aria-label="Monitors">
        {shown.map((row) => (
          <li key={row.publicId} class={`monitor-row state-${row.state}`}>
            <div class="monitor-main">
              <Link to={`/monitors/${row.kind}/${row.publicId}`} class="monitor-name">
                {row.name}
              </Link>
              <span class="monitor-target">{row.target}</span>
            </div>
            <StateBadge state={row.state} />
            <span class="monitor-meta">
              {row.customerName} · {row.kind}
            </span>
            <span class="monitor-meta" title={row.unknownWhy ?? undefined}>
              {row.unknownWhy ?? `${ms(row.lastResult?.responseTimeMs)} · ${ago(row.lastResult?.checkedAt)}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
