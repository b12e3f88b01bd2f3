import { render } from 'preact';
import { loadBrand } from './screens/branding/brand';
import { preloadOverview } from './monitors/overview-read';
import { sessionMarked, startSessionRead } from './session';
import { startOffline } from './offline';

/*
 * The console's first module is small on purpose: it starts the reads the first screen waits for,
 * and only then loads the screens (./boot, a chunk of its own), so the reads travel while the
 * console's code is still arriving and being compiled.
 */

// The host's look (white-label or the platform's) is read at once, alongside the session.
void loadBrand();
const root = document.getElementById('app')!;
// The wall display (/app/wall) is no signed-in user's page: its own chunk, its own token, no session asked for.
if (/^\/app\/wall\/?$/.test(window.location.pathname)) void import('./wall/wall').then(({ Wall }) => render(<Wall />, root));
else {
  // The service worker (the shell offline, the last state read with its age, Web Push) is listened to
  // before the first read leaves: what it says of a read it answered offline must not come unheard.
  startOffline();
  void startSessionRead();
  // On the overview's address, with the signed-in marker set, its list is read beside the session, not
  // after it: the screen takes the read over (a session that turns out to have ended refuses both).
  if (sessionMarked() && /^\/app\/?$/.test(window.location.pathname)) preloadOverview();
  void import('./boot').then(({ boot }) => boot(root));
}
