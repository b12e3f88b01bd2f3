import { useEffect, useState } from 'preact/hooks';
import { describe, type ApiError, type Schemas } from '../../api/client';
import { dateTime } from '../../components/format';
import { Link } from '../../components/link';
import { byName, loadOverview, type OverviewRow } from '../../monitors/monitor-rows';

/** How many matches the picker lists at once (the chosen ones are always listed). */
const SHOWN = 30;

/** Every monitor the user may see (GET /api/monitor-overview), for the picker and for names. */
export function useMonitorRows(wanted = true): { rows: OverviewRow[] | null; error: string | null } {
  const [rows, setRows] = useState<OverviewRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted) return;
    loadOverview(() => undefined).then(
      (found) => setRows(found.sort((a, b) => byName(a.name, b.name))),
      (failure: unknown) => setError(describe(failure)),
    );
  }, [wanted]);
  return { rows, error };
}

/** The link to a monitor's page from its overview row. */
export const monitorPath = (row: Pick<OverviewRow, 'kind' | 'publicId'>) => `/monitors/${row.kind}/${row.publicId}`;

/** The loop a `dependencyCycle` refusal names (data.cycle, publicIds in order), in monitor names. */
export function cycleOf(failure: ApiError | null, rows: OverviewRow[] | null): string | null {
  const cycle = failure?.code === 'dependencyCycle' ? failure.data.cycle : null;
  if (!Array.isArray(cycle)) return null;
  const names = new Map((rows ?? []).map((row) => [row.publicId, row.name]));
  return cycle.map((id) => names.get(String(id)) ?? String(id)).join(' → ');
}

/**
 * "Depends on" (the monitors' `dependsOn`): a search over the monitors the user sees and a box per
 * match; the chosen ones stay listed first. The API decides what may be linked (same customer, or the
 * organization's managed monitors) and refuses loops: its words show under the list.
 */
export function DependsOnPicker(props: {
  rows: OverviewRow[] | null;
  self?: string;
  customerId?: number;
  chosen: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  cycle?: string | null;
}) {
  const { rows, self, customerId, chosen, onChange, error, cycle } = props;
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const candidates = (rows ?? []).filter((row) => row.publicId !== self && !chosen.includes(row.publicId));
  // The monitor's own customer first: the usual dependencies; others are the organization's shared ones.
  const ranked = [
    ...candidates.filter((row) => row.customerId === customerId),
    ...candidates.filter((row) => row.customerId !== customerId),
  ].filter((row) => !needle || row.name.toLowerCase().includes(needle) || (row.target ?? '').toLowerCase().includes(needle));
  const byId = new Map((rows ?? []).map((row) => [row.publicId, row]));
  const box = (id: string) => {
    const row = byId.get(id);
    return (
      <label key={id} class="choice">
        <input
          type="checkbox"
          checked={chosen.includes(id)}
          onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, id] : chosen.filter((each) => each !== id))}
        />
        {row ? row.name : id}
        {row && row.customerId !== customerId ? <span class="muted"> ({row.customerName})</span> : null}
      </label>
    );
  };
  return (
    <fieldset class="settings-group" aria-describedby={error ? 'monitor-depends-on-error' : 'monitor-depends-on-hint'}>
      <legend>Depends on</legend>
      <p class="field-hint" id="monitor-depends-on-hint">
        While a monitor it depends on is down, this one opens no incident of its own: the root's incident lists it.
      </p>
      <label for="depends-on-search">Find a monitor</label>
      <input id="depends-on-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      {rows === null ? <p class="field-hint">Loading the monitors…</p> : null}
      <div class="choices" role="group" aria-label="Chosen dependencies">
        {chosen.map(box)}
      </div>
      <div class="choices" role="group" aria-label="Other monitors">
        {ranked.slice(0, SHOWN).map((row) => box(row.publicId))}
      </div>
      {ranked.length > SHOWN ? <p class="field-hint">{ranked.length - SHOWN} more: narrow the search.</p> : null}
      {error ? (
        <p class="field-error" id="monitor-depends-on-error" role="alert">
          {error}
          {cycle ? ` Loop: ${cycle}.` : ''}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * A monitor's dependencies on its page, and, while it is held back (`dependencyDown`), the root whose
 * incident stands for it.
 */
export function MonitorDependencies({ dependsOn, root }: { dependsOn: readonly string[]; root: string | null }) {
  const { rows, error } = useMonitorRows(dependsOn.length > 0 || root !== null);
  if (dependsOn.length === 0 && root === null) return null;
  const byId = new Map((rows ?? []).map((row) => [row.publicId, row]));
  const link = (id: string) => {
    const row = byId.get(id);
    return row ? <Link to={monitorPath(row)}>{row.name}</Link> : <span>{rows ? 'a monitor you cannot see' : id}</span>;
  };
  return (
    <section aria-labelledby="monitor-dependencies-title">
      {root !== null ? (
        <p class="note dependency-down" role="status">
          Held back by a dependency: {link(root)} is down, and its incident stands for this monitor (no incident of its own).
        </p>
      ) : null}
      <h2 id="monitor-dependencies-title">Depends on</h2>
      {dependsOn.length === 0 ? (
        <p class="muted">No dependencies.</p>
      ) : (
        <ul class="dependency-list">
          {dependsOn.map((id) => (
            <li key={id}>
              {link(id)}
              {byId.get(id) ? <span class="muted"> · {byId.get(id)!.state}</span> : null}
            </li>
          ))}
        </ul>
      )}
      {error ? <p class="error">{error}</p> : null}
    </section>
  );
}

/**
 * A root incident's affected monitors (`affectedMonitors` of GET /api/incidents/{id}): the monitors
 * depending on it that fail with it, each a link to its page (its kind from the overview's rows).
 */
export function AffectedMonitors({ affected }: { affected: ReadonlyArray<Schemas['AffectedMonitor']> }) {
  const { rows } = useMonitorRows(affected.length > 0);
  if (affected.length === 0) return null;
  const byId = new Map((rows ?? []).map((row) => [row.publicId, row]));
  return (
    <section aria-labelledby="incident-affected-title">
      <h2 id="incident-affected-title">Affected monitors ({affected.length})</h2>
      <p class="muted">Monitors depending on this one that fail with it: this incident stands for them.</p>
      <ul>
        {affected.map((monitor) => {
          const row = byId.get(monitor.publicId);
          return (
            <li key={monitor.publicId}>
              {row ? <Link to={monitorPath(row)}>{monitor.name}</Link> : <span>{monitor.name}</span>}
              <span class="muted"> · since {dateTime(monitor.since)}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
