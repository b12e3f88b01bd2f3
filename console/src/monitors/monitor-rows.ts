import { api, ok, type Customer, type Schemas } from '../api/client';

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

export type OverviewRow = Schemas['MonitorOverviewItem'];
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

/** Rows per call: 10,000 monitors are ten calls. */
const PER_PAGE = 1000;
/** Calls in flight at once. */
const LANES = 4;
/** How many pages the list had when last read in this browser (a guess: every answer tells the truth). */
const PAGES_KEY = 'console.overviewPages';

function pagesLastTime(): number {
  try {
    return Math.max(1, Number(window.localStorage.getItem(PAGES_KEY)) || 1);
  } catch {
    return 1; // storage refused (a private window): one call first, as on a first visit
  }
}

function rememberPages(pages: number): void {
  try {
    window.localStorage.setItem(PAGES_KEY, String(pages));
  } catch {
    // Not kept: the next read starts with one call.
  }
}

/**
 * Every monitor of the caller's scope, page by page from GET /api/monitor-overview, four calls at a
 * time; `progress` hears how many are in. The first answer tells how many pages there are; as many
 * calls as the list had pages last time (up to four) start at once, so a list read before does not
 * wait for its first page to learn its length (a page that turns out past the end comes back empty).
 */
export function loadOverview(progress: Progress): Promise<OverviewRow[]> {
  const taken = early;
  early = null;
  if (!taken) return readOverview(progress);
  taken.hear(progress);
  return taken.rows;
}

type Progress = (loaded: number, total: number) => void;

/** The list's read started before its screen asked for it (`preloadOverview`), taken by the first `loadOverview`. */
let early: { rows: Promise<OverviewRow[]>; hear: (progress: Progress) => void } | null = null;

/**
 * Starts reading the list before its screen asks for it: main.tsx calls it on the overview's
 * address as soon as the session answers, so the list does not wait for the first render. The
 * screen's `loadOverview` takes this read over (hearing its progress so far) instead of starting one.
 */
export function preloadOverview(): void {
  if (early) return;
  let heard: [number, number] | null = null;
  let listener: Progress | null = null;
  const rows = readOverview((loaded, total) => {
    heard = [loaded, total];
    listener?.(loaded, total);
  });
  rows.catch(() => undefined); // told to the screen that takes the read over
  early = {
    rows,
    hear: (progress) => {
      listener = progress;
      if (heard) progress(...heard);
    },
  };
}

async function readOverview(progress: Progress): Promise<OverviewRow[]> {
  const page = (n: number) => ok(api.GET('/api/monitor-overview', { params: { query: { page: n, perPage: PER_PAGE } } }));
  const pages: OverviewRow[][] = [];
  let count = pagesLastTime();
  let total: number | undefined;
  let loaded = 0;
  let next = 1;
  let failure: unknown;
  const lanes: Array<Promise<void>> = [];
  const lane = async () => {
    try {
      while (next <= count && failure === undefined) {
        const n = next++;
        const answer = await page(n);
        if (total === undefined) {
          total = answer.total;
          count = Math.max(1, Math.ceil(total / PER_PAGE));
          rememberPages(count);
          open();
        }
        pages[n - 1] = answer.items;
        loaded += answer.items.length;
        progress(loaded, total);
      }
    } catch (error) {
      failure ??= error;
    }
  };
  const open = () => {
    while (lanes.length < Math.min(LANES, count)) lanes.push(lane());
  };
  open();
  for (let i = 0; i < lanes.length; i++) await lanes[i];
  if (failure !== undefined) throw failure;
  return pages.slice(0, count).flat();
}

/** Names in the reader's language order (one collator: `localeCompare` builds one per call, slow at 10,000 rows). */
export const byName = new Intl.Collator(undefined, { numeric: true }).compare;

const URGENCY = Object.fromEntries(STATES.map((state, index) => [state, index])) as Record<ConsoleState, number>;

/** Down first, then the other states in STATES' order, then by name. */
export function byUrgency(a: OverviewRow, b: OverviewRow): number {
  return URGENCY[a.state] - URGENCY[b.state] || byName(a.name, b.name);
}
