import { api, ok, type Customer, type Schemas } from '../api/client';

/** What the console says a monitor is now. */
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

/** Per-protocol monitor kinds the API lists under /api/monitors/{type}. */
export const PER_KIND_TYPES = ['dns', 'icmp', 'tcp', 'smtp', 'ssh', 'ftp', 'imap-pop'] as const;
export type MonitorKind = 'website' | (typeof PER_KIND_TYPES)[number];

type ApiMonitor = Schemas['Website'] | Schemas['Monitor'];
type LastResult = Schemas['StoredCheckResult'] | null;

export interface MonitorRow {
  readonly publicId: string;
  readonly kind: MonitorKind;
  readonly name: string;
  /** The URL or host it checks. */
  readonly target: string;
  readonly customerId: number;
  readonly customerName: string;
  readonly state: ConsoleState;
  /** Why it is unknown, in words, when it is. */
  readonly unknownWhy: string | null;
  readonly lastResult: LastResult;
}

/**
 * The state shown: paused, in maintenance, down (its incident is open, or it fails with a monitor it
 * depends on: dependencyDown, the root's incident tells it), degraded (up, but its last result was
 * degraded), unknown (with the API's reason), up.
 */
export function consoleState(monitor: ApiMonitor, inMaintenance: boolean, last: LastResult): ConsoleState {
  if (monitor.status === 'paused') return 'paused';
  if (inMaintenance) return 'maintenance';
  if (monitor.currentState.status === 'down' || monitor.currentState.status === 'dependencyDown') return 'down';
  if (monitor.currentState.status === 'unknown') return 'unknown';
  return last?.status === 'degraded' ? 'degraded' : 'up';
}

export function unknownWhy(monitor: ApiMonitor): string | null {
  const { status, reason, silentLocations } = monitor.currentState;
  if (status !== 'unknown') return null;
  if (reason === 'noResults') return 'No result yet';
  if (reason === 'paused') return 'Paused';
  if (reason === 'silentLocations') return `Silent locations: ${silentLocations.join(', ')}`;
  return null;
}

/** Every page of a paged list. */
async function allPages<T>(page: (n: number) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const items: T[] = [];
  for (let n = 1; ; n++) {
    const result = await page(n);
    items.push(...result.items);
    if (result.items.length === 0 || items.length >= result.total) return items;
  }
}

/** `work` over `items`, at most `width` at a time. */
async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

const PER_PAGE = 200;

export async function loadCustomers(): Promise<Customer[]> {
  return (await ok(api.GET('/api/customers'))) as Customer[];
}

async function loadMonitors(): Promise<Array<{ monitor: ApiMonitor; kind: MonitorKind; target: string }>> {
  const websites = allPages((page) => ok(api.GET('/api/websites', { params: { query: { page, perPage: PER_PAGE } } })));
  const perKind = PER_KIND_TYPES.map(async (type) => {
    // Every kind's list has the one shape; the path names the kind.
    const path = `/api/monitors/${type}` as '/api/monitors/dns';
    const items = await allPages((page) => ok(api.GET(path, { params: { query: { page, perPage: PER_PAGE } } })));
    return items.map((monitor) => ({ monitor, kind: type as MonitorKind, target: monitor.hostname }));
  });
  const sites = (await websites).map((monitor) => ({
    monitor,
    kind: 'website' as MonitorKind,
    target: monitor.url ?? monitor.monitoringType,
  }));
  return [...sites, ...(await Promise.all(perKind)).flat()];
}

/** The newest stored result of a monitor (any kind: check history is kept per monitor). */
export async function lastResult(publicId: string): Promise<LastResult> {
  const page = await ok(api.GET('/api/websites/{id}/check-history', { params: { path: { id: publicId }, query: { perPage: 1 } } }));
  return page.items[0] ?? null;
}

async function inMaintenance(ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const { results } = await ok(api.POST('/api/maintenance-windows/check/batch', { body: { websiteIds: ids.slice(i, i + 500) } }));
    for (const result of results) if (result.inMaintenance) found.add(result.websiteId);
  }
  return found;
}

/** Every monitor of the caller's scope, with its state and last result. */
export async function loadMonitorRows(customers: Customer[]): Promise<MonitorRow[]> {
  const monitors = await loadMonitors();
  const names = new Map(customers.map((c) => [c.id, c.name]));
  const ids = monitors.map(({ monitor }) => monitor.publicId);
  const [maintenance, results] = await Promise.all([
    ids.length > 0 ? inMaintenance(ids) : Promise.resolve(new Set<string>()),
    inParallel(ids, 8, lastResult),
  ]);
  return monitors.map(({ monitor, kind, target }, index) => {
    const last = results[index] ?? null;
    return {
      publicId: monitor.publicId,
      kind,
      name: monitor.name,
      target,
      customerId: monitor.customerId,
      customerName: names.get(monitor.customerId) ?? `Customer ${monitor.customerId}`,
      state: consoleState(monitor, maintenance.has(monitor.publicId) || maintenance.has(String(monitor.id)), last),
      unknownWhy: unknownWhy(monitor),
      lastResult: last,
    };
  });
}

/** Down first, then the other states in STATES' order, then by name. */
export function byUrgency(a: MonitorRow, b: MonitorRow): number {
  return STATES.indexOf(a.state) - STATES.indexOf(b.state) || a.name.localeCompare(b.name);
}
