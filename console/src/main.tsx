import { render } from 'preact';
import { App } from './app';
import { loadBrand } from './screens/branding/brand';
import { startOffline } from './offline';

// The host's look (white-label or the platform's) is read at once, alongside the session.
void loadBrand();
const root = document.getElementById('app')!;
// The wall display (/app/wall) is no signed-in user's page: its own chunk, its own token, no session asked for.
if (/^\/app\/wall\/?$/.test(window.location.pathname)) void import('./wall/wall').then(({ Wall }) => render(<Wall />, root));
else {
  render(<App />, root);
  // The service worker: the shell offline, the last state read with its age, Web Push.
  startOffline();
}
