import { useState } from 'preact/hooks';
import type { Customer, Schemas } from '../../api/client';
import { byName } from '../../monitors/monitor-rows';

type OverviewRow = Schemas['MonitorOverviewItem'];
export type Target = { type: Schemas['MaintenanceWindowTargetInput']['type']; id: string };

const SHOWN = 30;

/**
 * What a window covers: whole customers (every monitor of theirs, present and future) and single
 * monitors, found by a search over the caller's monitors (only the first matches are offered).
 */
export function TargetsPicker({
  idPrefix,
  targets,
  customers,
  monitors,
  onChange,
  error,
}: {
  idPrefix: string;
  targets: Target[];
  customers: Customer[];
  monitors: OverviewRow[];
  onChange: (targets: Target[]) => void;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const has = (type: string, id: string) =>
    targets.some((t) => t.id === id && (t.type === type || (type === 'monitor' && t.type === 'website')));
  const toggle = (type: Target['type'], id: string, on: boolean) =>
    onChange(on ? [...targets, { type, id }] : targets.filter((t) => t.id !== id));
  const needle = search.trim().toLowerCase();
  const matches = monitors
    .filter(
      (m) =>
        has('monitor', m.publicId) || (needle !== '' && `${m.name} ${m.target ?? ''} ${m.customerName}`.toLowerCase().includes(needle)),
    )
    .sort((a, b) => byName(a.name, b.name))
    .slice(0, SHOWN);
  const others = targets.filter((t) => t.type === 'customerIp' || t.type === 'customerDomain');
  return (
    <fieldset class="targets" aria-describedby={error ? `${idPrefix}-targets-error` : undefined}>
      <legend>What it covers</legend>
      {customers.length > 0 ? (
        <div class="target-group" role="group" aria-label="Customers">
          <p class="muted">Whole customers (their monitors now and later):</p>
          {customers.map((c) => (
            <label key={c.publicId} class="check">
              <input
                type="checkbox"
                class="checkbox"
                checked={has('customer', c.publicId)}
                onChange={(e) => toggle('customer', c.publicId, e.currentTarget.checked)}
              />
              Customer {c.name}
            </label>
          ))}
        </div>
      ) : null}
      <div class="target-group">
        <label for={`${idPrefix}-monitor-search`}>Find monitors</label>
        <input id={`${idPrefix}-monitor-search`} type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        <div role="group" aria-label="Monitors">
          {matches.map((m) => (
            <label key={m.publicId} class="check">
              <input
                type="checkbox"
                class="checkbox"
                checked={has('monitor', m.publicId)}
                onChange={(e) => toggle('monitor', m.publicId, e.currentTarget.checked)}
              />
              {m.name} <span class="muted">({m.customerName})</span>
            </label>
          ))}
        </div>
      </div>
      {others.length > 0 ? <p class="muted">Also {others.length} watched IP address or domain target(s), kept as they are.</p> : null}
      {error ? (
        <p class="field-error" id={`${idPrefix}-targets-error`} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A target in words, from the names the page knows. */
export function targetWords(target: { type: string; id: string }, customers: Customer[], monitors: OverviewRow[]): string {
  if (target.type === 'customer') return `Customer ${customers.find((c) => c.publicId === target.id)?.name ?? target.id}`;
  if (target.type === 'customerIp') return `IP address ${target.id}`;
  if (target.type === 'customerDomain') return `Domain ${target.id}`;
  return monitors.find((m) => m.publicId === target.id)?.name ?? `Monitor ${target.id}`;
}
