import { STATE_LABELS, STATES, byName, byUrgency, type ConsoleState, type OverviewRow } from './monitor-rows';

export const GROUPINGS = {
  none: 'No grouping',
  customer: 'Customer',
  tag: 'Tag',
  kind: 'Kind',
  location: 'Location',
  state: 'State',
} as const;
export type Grouping = keyof typeof GROUPINGS;

export interface Filters {
  readonly search: string;
  readonly customer: string;
  readonly tag: string;
  readonly kind: string;
  readonly state: ConsoleState | '';
  readonly location: string;
  readonly group: Grouping;
}

export const NO_FILTERS: Filters = { search: '', customer: '', tag: '', kind: '', state: '', location: '', group: 'none' };

/** A line of the list: a group's heading or a monitor. */
export type ListLine = { type: 'group'; key: string; label: string; count: number } | { type: 'monitor'; key: string; row: OverviewRow };

/** The values the filters can take, from the rows themselves. */
export function choices(rows: readonly OverviewRow[]) {
  const customers = new Map<string, string>();
  const tags = new Set<string>();
  const kinds = new Set<string>();
  const locations = new Set<string>();
  for (const row of rows) {
    customers.set(String(row.customerId), row.customerName);
    for (const tag of row.tags) tags.add(tag.name);
    kinds.add(row.kind);
    for (const location of row.locations) locations.add(location);
  }
  const sorted = (values: Iterable<string>) => [...values].sort(byName);
  return {
    customers: [...customers].sort((a, b) => byName(a[1], b[1])),
    tags: sorted(tags),
    kinds: sorted(kinds),
    locations: sorted(locations),
  };
}

export function matches(row: OverviewRow, filters: Filters, term: string): boolean {
  return (
    (!filters.customer || String(row.customerId) === filters.customer) &&
    (!filters.state || row.state === filters.state) &&
    (!filters.kind || row.kind === filters.kind) &&
    (!filters.tag || row.tags.some((tag) => tag.name === filters.tag)) &&
    (!filters.location || row.locations.includes(filters.location)) &&
    (!term || row.name.toLowerCase().includes(term) || (row.target ?? '').toLowerCase().includes(term))
  );
}

/** The groups a row falls in (a monitor with two tags is under both; none: one group). */
function groupsOf(row: OverviewRow, group: Grouping): string[] {
  switch (group) {
    case 'customer':
      return [row.customerName];
    case 'tag':
      return row.tags.length > 0 ? row.tags.map((tag) => tag.name) : ['No tag'];
    case 'kind':
      return [row.kind];
    case 'location':
      return row.locations.length > 0 ? [...row.locations] : ['Default locations'];
    case 'state':
      return [STATE_LABELS[row.state]];
    case 'none':
      return [''];
  }
}

/**
 * The lines to show: the rows that match, most urgent first; grouped, each group headed by its name
 * and count, groups holding something down first, then by name.
 */
export function linesOf(rows: readonly OverviewRow[], filters: Filters): ListLine[] {
  const term = filters.search.trim().toLowerCase();
  const shown = rows.filter((row) => matches(row, filters, term)).sort(byUrgency);
  if (filters.group === 'none') return shown.map((row) => ({ type: 'monitor', key: row.publicId, row }));
  const groups = new Map<string, OverviewRow[]>();
  for (const row of shown) {
    for (const name of groupsOf(row, filters.group)) {
      const members = groups.get(name) ?? [];
      members.push(row);
      groups.set(name, members);
    }
  }
  const worst = (members: OverviewRow[]) => STATES.indexOf(members[0]!.state);
  const ordered =
    filters.group === 'state'
      ? [...groups].sort((a, b) => worst(a[1]) - worst(b[1]))
      : [...groups].sort((a, b) => worst(a[1]) - worst(b[1]) || byName(a[0], b[0]));
  return ordered.flatMap(([name, members]) => [
    { type: 'group' as const, key: `group:${name}`, label: name, count: members.length },
    ...members.map((row) => ({ type: 'monitor' as const, key: `${name}:${row.publicId}`, row })),
  ]);
}

/** Counts per state over every row of the scope. */
export function countsOf(rows: readonly OverviewRow[]): Record<ConsoleState, number> {
  const counts = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<ConsoleState, number>;
  for (const row of rows) counts[row.state]++;
  return counts;
}
