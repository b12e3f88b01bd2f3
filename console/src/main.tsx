import { render } from 'preact';
import { App } from './app';
import { loadBrand } from './screens/branding/brand';
import { preloadOverview } from './monitors/monitor-rows';
import { startOffline } from './offline';
import { startSessionRead } from './session';

// The host's look (white-label or the platform's) is read at once, alongside the session.
void loadBrand();
const root = document.getElementById('app')!;
// The wall display (/app/wall) is no signed-in user's page: its own chunk, its own token, no session asked for.
if (/^\/app\/wall\/?$/.test(window.location.pathname)) void import('./wall/wall').then(({ Wall }) => render(<Wall />, root));
else {
  // The session is read at once (not after the first render), and on the overview's address its list
  // as soon as the session answers: the screen that asks for them takes over these reads.
  void startSessionRead().then((session) => {
    if (session.kind === 'signedIn' && /^\/app\/?$/.test(window.location.pathname)) preloadOverview();
  });
  render(<App />, root);
  // The service worker: the shell offline, the last state read with its age, Web Push.
  startOffline();
}
