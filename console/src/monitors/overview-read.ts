import { api, ok, type Schemas } from '../api/client';

/*
 * The overview's list, read page by page. A module of its own, with nothing but the API client: the
 * console's first module (main.tsx) starts this read before the screens' code has arrived.
 */

export type OverviewRow = Schemas['MonitorOverviewItem'];

/** Rows per call: 10,000 monitors are ten calls. */
const PER_PAGE = 1000;
/**
 * Calls asked for at once: 12,000 monitors' worth. The browser carries six at a time per host and
 * queues the rest itself, so the next page leaves as soon as a connection is free, not when this
 * page's script is next free to ask (it may be compiling the screens or drawing then).
 */
const LANES = 12;
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
 * Every monitor of the caller's scope, page by page from GET /api/monitor-overview, up to LANES calls
 * at a time; `progress` hears how many are in. The first answer tells how many pages there are; as
 * many calls as the list had pages last time start at once, so a list read before does not wait for
 * its first page to learn its length (a page that turns out past the end comes back empty).
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
