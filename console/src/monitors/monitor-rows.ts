import { api, ok, type Customer, type Schemas } from '../api/client';
import type { OverviewRow } from './overview-read';

/** What the console says a monitor is now (the API's overview state), most urgent first. */
export const STATES = ['down', 'degraded', 'unknown', 'maintenance', 'paused', 'up'] as const;
export type ConsoleState = (typeof STATES)[number];

export const STATE_LABELS: Record<ConsoleState, string> = {
  down: 'Down',
  degraded: 'Degraded',
  unknown: 'Unknown',
  maintenance: 'In maintenance',
  paused: 'Paused',
  up: 'Up',
};

/** Every monitor kind, as the API's document names them: the console's tables keyed by it are total. */
export type { MonitorKind } from './kind-fields';

/** Per-protocol monitor kinds the API lists under /api/monitors/{type}, in the picker's order: the catalogue's (./kind-fields.ts). */
export { PER_KIND_TYPES } from './kind-fields';

/** The overview's list and its reading (./overview-read.ts), for the screens that import them from here. */
export type { OverviewRow } from './overview-read';
export { loadOverview } from './overview-read';

type ApiMonitor = Schemas['Website'] | Schemas['Monitor'];
type LastResult = Schemas['StoredCheckResult'] | null;

/**
 * The state shown for a monitor read on its own page (the overview gets it from the API): paused, in
 * maintenance, down (its incident is open, or it fails with a monitor it depends on: dependencyDown,
 * the root's incident tells it), degraded (up, but its last result was degraded), unknown, up.
 */
export function consoleState(monitor: ApiMonitor, inMaintenance: boolean, last: LastResult): ConsoleState {
  if (monitor.status === 'paused') return 'paused';
  if (inMaintenance) return 'maintenance';
  if (monitor.currentState.status === 'down' || monitor.currentState.status === 'dependencyDown') return 'down';
  if (monitor.currentState.status === 'unknown') return 'unknown';
  return last?.status === 'degraded' ? 'degraded' : 'up';
}

/** Why a monitor is unknown, in words, when it is. */
export function unknownWhy(currentState: ApiMonitor['currentState']): string | null {
  const { status, reason, silentLocations } = currentState;
  if (status !== 'unknown') return null;
  if (reason === 'noResults') return 'No result yet';
  if (reason === 'paused') return 'Paused';
  if (reason === 'silentLocations') return `Silent locations: ${silentLocations.join(', ')}`;
  return null;
}

export async function loadCustomers(): Promise<Customer[]> {
  return (await ok(api.GET('/api/customers'))) as Customer[];
}

/** Names in the reader's language order (one collator: `localeCompare` builds one per call, slow at 10,000 rows). */
export const byName = new Intl.Collator(undefined, { numeric: true }).compare;

const URGENCY = Object.fromEntries(STATES.map((state, index) => [state, index])) as Record<ConsoleState, number>;

/** Down first, then the other states in STATES' order, then by name. */
export function byUrgency(a: OverviewRow, b: OverviewRow): number {
  return URGENCY[a.state] - URGENCY[b.state] || byName(a.name, b.name);
}
