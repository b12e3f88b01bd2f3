import type { Browser, BrowserContext, CDPSession, Page, Worker } from 'playwright-core';

/** A notification as the service worker's registration lists it. */
export interface ShownNotification {
  readonly title: string;
  readonly body: string;
  readonly tag: string;
  readonly actions: readonly string[];
  readonly data: Record<string, any>;
}

/** The console open in Chromium with its real service worker, and what a test does to it. */
export interface ConsoleWithWorker {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly worker: Worker;
  /** Delivers a push message's data to the worker as the browser does when its push service hands one over (CDP ServiceWorker.deliverPushMessage). */
  deliver(data: string): Promise<void>;
  /** The worker's shown notifications (`self.registration.getNotifications()`). */
  notifications(): Promise<ShownNotification[]>;
  /**
   * A tap on the notification tagged `tag` (the newest when none), on `action` or its body when none:
   * the worker's notificationclick path; answers what it answered.
   */
  tap(action?: string, tag?: string): Promise<unknown>;
  /** Closes every notification shown (as swiping them away). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the console at `url` (its sign-in page: the worker registers on every console page) in a
 * new context of `browser` at a phone's size, with notifications allowed, and waits for its service
 * worker to run; the registration's id comes from CDP's ServiceWorker domain.
 */
export async function openConsoleWithWorker(browser: Browser, url: string): Promise<ConsoleWithWorker> {
  const origin = new URL(url).origin;
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  await context.grantPermissions(['notifications'], { origin });
  const page = await context.newPage();
  const cdp: CDPSession = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
    for (const r of list as { registrationId: string; scopeURL: string; isDeleted: boolean }[])
      if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  const workerSeen = context.waitForEvent('serviceworker', { timeout: 30_000 });
  await page.goto(`${origin}/app/sign-in`);
  const worker = context.serviceWorkers()[0] ?? (await workerSeen);
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  const scope = `${origin}/app/`;
  const deadline = Date.now() + 10_000;
  while (!registrations.has(scope) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const registrationId = registrations.get(scope);
  if (!registrationId) throw new Error(`no service worker registration for ${scope}`);
  return {
    context,
    page,
    worker,
    deliver: async (data) => {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data });
    },
    // Read through the page's registration: the same list, whichever worker process runs now.
    notifications: () =>
      page.evaluate(`navigator.serviceWorker.ready.then((registration) => registration.getNotifications().then((list) => list.map((n) => ({
        title: n.title, body: n.body, tag: n.tag, actions: (n.actions || []).map((a) => a.action), data: n.data,
      }))))`) as Promise<ShownNotification[]>,
    tap: (action = '', tag?: string) =>
      (context.serviceWorkers().at(-1) ?? worker).evaluate(`self.registration.getNotifications().then((list) => {
        const newest = list.find((n) => n.tag === ${JSON.stringify(tag ?? null)}) || list[list.length - 1];
        if (!newest) throw new Error('no notification to tap');
        return handleNotificationClick(newest, ${JSON.stringify(action)});
      })`),
    clear: () =>
      page.evaluate(
        'navigator.serviceWorker.ready.then((registration) => registration.getNotifications()).then((list) => list.forEach((n) => n.close()))',
      ) as Promise<void>,
    close: () => context.close(),
  };
}

/** Waits until the worker shows a notification whose tag is `tag`; answers it and when it was seen (performance.now()). */
export async function shownWithTag(
  console: ConsoleWithWorker,
  tag: string,
  timeoutMs = 30_000,
): Promise<{ notification: ShownNotification; at: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = await console.notifications();
    const found = shown.find((n) => n.tag === tag);
    if (found) return { notification: found, at: performance.now() };
    if (Date.now() > deadline) {
      // What the browser had, so a miss says whether the push was shown under another tag, or the worker was replaced.
      const workers = console.context.serviceWorkers().map((w) => w.url());
      throw new Error(
        `no notification tagged ${tag} shown in ${timeoutMs} ms; shown: ${JSON.stringify(shown.map((n) => n.tag))}, workers: ${JSON.stringify(workers)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
