/**
 * The console's service worker (served at /app/sw.js, scope /app/, under the console's CSP:
 * `worker-src 'self'`). It keeps the shell available offline, keeps the last overview and incident
 * lists it saw (answered, when the network is gone, with the moment they were read, so the page can
 * say how old they are), shows Web Push notifications, and acknowledges from a notification's action
 * with the single-use grant the push carried (never a session: the fetch sends no cookie).
 */
const SHELL = 'shell-v1';
const STATE = 'state-v1';
const SHELL_URL = '/app/';
/** API reads kept for offline: what the first screens show (the overview's monitors, the incident lists, who is signed in). */
const KEPT_READS = [/^\/api\/monitor-overview(\?|$)/, /^\/api\/incidents(\?|$)/, /^\/api\/auth\/get-session$/];

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL && n !== STATE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

/** The page and the hashed assets it links, read from the page itself. */
async function cacheShell() {
  const cache = await caches.open(SHELL);
  const page = await fetch(SHELL_URL, { credentials: 'same-origin' });
  if (!page.ok) return;
  const html = await page.clone().text();
  await cache.put(SHELL_URL, page);
  const assets = [...html.matchAll(/(?:src|href)="(\/app\/(?:assets|icons)\/[^"]+)"/g)].map((m) => m[1]);
  await Promise.all(assets.map((url) => cache.add(url).catch(() => undefined)));
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname.startsWith('/app')) event.respondWith(shellFirstOnline(request));
  else if (url.pathname.startsWith('/app/assets/') || url.pathname.startsWith('/app/icons/')) event.respondWith(cacheFirst(request));
  else if (KEPT_READS.some((pattern) => pattern.test(url.pathname + url.search))) event.respondWith(keptRead(event));
});

async function shellFirstOnline(request) {
  try {
    const fresh = await fetch(request);
    if (fresh.ok) void caches.open(SHELL).then((cache) => cache.put(SHELL_URL, fresh.clone()));
    return fresh;
  } catch {
    return (await caches.match(SHELL_URL)) || Response.error();
  }
}

async function cacheFirst(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const fresh = await fetch(request);
  if (fresh.ok) void caches.open(SHELL).then((cache) => cache.put(request, fresh.clone()));
  return fresh;
}

/**
 * The network's answer, handed to the page as it streams in and kept, once read, with the moment it
 * was read (the copy is made beside the page's read, never before it: a list of thousands of
 * monitors is not held back for it); without a network, the kept one with `X-Offline-Read-At` (when
 * it was read), and the pages told so (`{type: 'offline', readAt}`).
 */
async function keptRead(event) {
  const request = event.request;
  try {
    const fresh = await fetch(request);
    if (fresh.ok) event.waitUntil(keep(request, fresh.clone()));
    else if (fresh.status === 401) {
      // Signed out: nothing of the account is kept.
      event.waitUntil(caches.delete(STATE));
    }
    return fresh;
  } catch (error) {
    const kept = await caches.match(request, { cacheName: STATE });
    if (!kept) throw error;
    const readAt = kept.headers.get('x-offline-read-at');
    const pages = await self.clients.matchAll({ type: 'window' });
    for (const page of pages) page.postMessage({ type: 'offline', readAt });
    return kept;
  }
}

/** Keeps an answer read now, stamped with the moment. */
async function keep(request, response) {
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  headers.set('x-offline-read-at', new Date().toISOString());
  const cache = await caches.open(STATE);
  await cache.put(request, new Response(body, { status: 200, headers }));
}

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(event.data ? event.data.text() : ''));
});

/** Shows a push's notification: its title and text, opening its page; with an Acknowledge action when it carries a grant. */
async function showPush(text) {
  let payload;
  try {
    payload = JSON.parse(text);
  } catch {
    payload = { title: 'Monitoring', body: text, url: SHELL_URL, tag: 'push' };
  }
  await self.registration.showNotification(payload.title, {
    body: payload.body,
    tag: payload.tag,
    renotify: true,
    requireInteraction: true,
    icon: '/app/icons/icon-192.png',
    badge: '/app/icons/icon-192.png',
    timestamp: Date.parse(payload.sentAt) || Date.now(),
    data: payload,
    actions: payload.ack ? [{ action: 'acknowledge', title: 'Acknowledge' }] : [],
  });
}

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(handleNotificationClick(event.notification, event.action));
});

/**
 * A tap on a notification: on its Acknowledge action, POST the grant (no cookie) and say how it
 * went (answers whether it acknowledged); anywhere else, open (or focus) the incident's page
 * (answers its address).
 */
async function handleNotificationClick(notification, action) {
  const payload = notification.data || {};
  notification.close();
  if (action === 'acknowledge' && payload.ack) {
    const answer = await fetch(payload.ack.url, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant: payload.ack.grant }),
    }).catch(() => null);
    const ok = answer !== null && answer.ok;
    const code = ok || !answer ? null : ((await answer.json().catch(() => null)) || {}).data?.code;
    await self.registration.showNotification(ok ? 'Acknowledged' : 'Not acknowledged', {
      body: ok
        ? payload.title
        : code === 'pushGrantExpired'
          ? 'The notification is too old: open the incident'
          : 'Open the incident to acknowledge it',
      tag: payload.tag,
      data: { url: payload.url, acknowledged: ok },
    });
    return ok;
  }
  const target = new URL(payload.url || SHELL_URL, self.location.origin).href;
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = pages.find((page) => page.url === target);
  // Opening a window needs the person's tap: called without one (a test), the browser refuses, and the page is answered all the same.
  if (open) await open.focus().catch(() => undefined);
  else await self.clients.openWindow(target).catch(() => undefined);
  return target;
}
