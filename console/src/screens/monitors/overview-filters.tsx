import { useMemo } from 'preact/hooks';
import { STATE_LABELS, STATES, type ConsoleState, type OverviewRow } from '../../monitors/monitor-rows';
import { GROUPINGS, choices, type Filters, type Grouping } from '../../monitors/overview-filters';
import type { BarSpan } from '../../monitors/use-uptime-bars';

interface Props {
  rows: readonly OverviewRow[];
  filters: Filters;
  onChange: (filters: Filters) => void;
  span: BarSpan;
  onSpan: (span: BarSpan) => void;
  /** Unfolded on a phone (the stylesheet shows them always on a wider screen). */
  open: boolean;
}

/** Search, the filters (their choices read from the rows), grouping and the uptime bars' span. */
export function OverviewFilters({ rows, filters, onChange, span, onSpan, open }: Props) {
  const options = useMemo(() => choices(rows), [rows]);
  const set = (change: Partial<Filters>) => onChange({ ...filters, ...change });
  return (
    <div id="overview-filters" class={`filters${open ? ' filters-open' : ''}`} role="search">
      <label>
        Search
        <input type="search" value={filters.search} placeholder="Name or address" onInput={(e) => set({ search: e.currentTarget.value })} />
      </label>
      <label>
        Customer
        <select value={filters.customer} onChange={(e) => set({ customer: e.currentTarget.value })}>
          <option value="">All customers</option>
          {options.customers.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        State
        <select value={filters.state} onChange={(e) => set({ state: e.currentTarget.value as ConsoleState | '' })}>
          <option value="">All states</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Tag
        <select value={filters.tag} onChange={(e) => set({ tag: e.currentTarget.value })}>
          <option value="">All tags</option>
          {options.tags.map((tag) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </select>
      </label>
      <label>
        Kind
        <select value={filters.kind} onChange={(e) => set({ kind: e.currentTarget.value })}>
          <option value="">All kinds</option>
          {options.kinds.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
      </label>
      <label>
        Location
        <select value={filters.location} onChange={(e) => set({ location: e.currentTarget.value })}>
          <option value="">All locations</option>
          {options.locations.map((location) => (
            <option key={location} value={location}>
              {location}
            </option>
          ))}
        </select>
      </label>
      <label>
        Group by
        <select value={filters.group} onChange={(e) => set({ group: e.currentTarget.value as Grouping })}>
          {Object.entries(GROUPINGS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Uptime bars
        <select value={span} onChange={(e) => onSpan(e.currentTarget.value as BarSpan)}>
          <option value="24h">Last 24 hours</option>
          <option value="90d">Last 90 days</option>
        </select>
      </label>
    </div>
  );
}
