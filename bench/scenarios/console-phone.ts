import type { Browser, CDPSession, Page } from 'playwright-core';
import type { BenchService } from '../support/service';

/** The phone the console is held to: 375 x 800 CSS pixels. */
export const PHONE = { width: 375, height: 800 } as const;

/** What one page load received, per request, as Chromium counted it (CDP Network). */
interface Received {
  url: string;
  type: string;
  /** Bytes on the wire (headers and the body as sent: compressed when it was). */
  wire: number;
  /** The body's bytes once decoded (what the page reads). */
  decoded: number;
}

/** Follows every request of a page through CDP, counting wire and decoded bytes of each finished one. */
async function recordNetwork(page: Page): Promise<{ cdp: CDPSession; finished: Received[] }> {
  const cdp = await page.context().newCDPSession(page);
  const open = new Map<string, Received>();
  const finished: Received[] = [];
  cdp.on('Network.responseReceived', (event) =>
    open.set(event.requestId, { url: event.response.url, type: event.type ?? 'Other', wire: 0, decoded: 0 }),
  );
  cdp.on('Network.dataReceived', (event) => {
    const entry = open.get(event.requestId);
    if (entry) entry.decoded += event.dataLength;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const entry = open.get(event.requestId);
    if (!entry) return;
    entry.wire = event.encodedDataLength;
    open.delete(event.requestId);
    finished.push(entry);
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return { cdp, finished };
}

const kilobytes = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** What the requests received on the wire, KiB; none, or nothing received, is the bench's failure, never a figure of 0. */
function received(requests: readonly Received[], what: string): number {
  const wire = requests.reduce((sum, r) => sum + r.wire, 0);
  if (requests.length === 0 || wire === 0) throw new Error(`${what}: no bytes seen on the wire (${requests.length} requests)`);
  return kilobytes(wire);
}

/** The shell of the first view: the page, its scripts, styles, icons and fonts (not the API's answers). */
const SHELL_TYPES = new Set(['Document', 'Script', 'Stylesheet', 'Image', 'Font', 'Manifest']);

export interface PhoneFigures {
  /** The first monitor line in view at the top of the page is down, and wholly above the fold. */
  downVisibleAboveFold: boolean;
  /** The first view's shell as received (CDP encodedDataLength), KiB. */
  firstViewWireKilobytes: number;
  /** The overview's monitor list (every page of GET /api/monitor-overview) as received, KiB. */
  overviewWireKilobytes: number;
  /** The same list decoded: the raw JSON, KiB. */
  overviewRawKilobytes: number;
  /** Where the first down line's bottom is, in CSS pixels from the top of the screen. */
  firstDownBottomPx: number | null;
}

/**
 * The overview opened once, signed in, in a fresh 375 x 800 page (nothing cached): what Chromium
 * received for the shell and for the monitor list, and whether what is down is on the first screen.
 */
export async function measurePhone(
  browser: Browser,
  service: BenchService,
  signIn: (page: Page) => Promise<void>,
  total: number,
): Promise<PhoneFigures> {
  // A first view has no service worker yet; one installed by the sign-in page would answer the shell
  // from its cache and fetch the list itself, out of this page's sight (CDP counts 0 bytes for both).
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
  try {
    const setup = await context.newPage();
    await signIn(setup);
    await setup.close();
    const page = await context.newPage();
    const { finished } = await recordNetwork(page);
    await page.goto(`${service.url}/app/`);
    await page.getByText(`of ${total} monitors shown`).waitFor({ timeout: 120_000 });
    // Let the last responses finish (a list page's loadingFinished can trail its parse).
    await page.waitForTimeout(1_000);
    const shell = finished.filter((r) => SHELL_TYPES.has(r.type));
    const list = finished.filter((r) => new URL(r.url).pathname === '/api/monitor-overview');
    // Evaluated in the page (as text: this file has no DOM types).
    const fold = (await page.evaluate(`(() => {
      window.scrollTo(0, 0);
      const lines = [...document.querySelectorAll('.monitor-list [role="listitem"]')]
        .map((line) => ({ line, box: line.getBoundingClientRect() }))
        .filter(({ box }) => box.bottom > 0 && box.top < window.innerHeight)
        .sort((a, b) => a.box.top - b.box.top);
      const first = lines[0];
      const down = lines.find(({ line }) => line.querySelector('.badge-down'));
      return {
        firstIsDown: Boolean(first && first.line.querySelector('.badge-down')),
        downBottom: down ? Math.round(down.box.bottom) : null,
        height: window.innerHeight,
      };
    })()`)) as { firstIsDown: boolean; downBottom: number | null; height: number };
    return {
      downVisibleAboveFold: fold.firstIsDown && fold.downBottom !== null && fold.downBottom <= fold.height,
      firstViewWireKilobytes: received(shell, 'the first view'),
      overviewWireKilobytes: received(list, 'the overview list'),
      overviewRawKilobytes: kilobytes(list.reduce((sum, r) => sum + r.decoded, 0)),
      firstDownBottomPx: fold.downBottom,
    };
  } finally {
    await context.close();
  }
}
