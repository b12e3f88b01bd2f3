import { render } from 'preact';
import { App } from './app';
import { loadBrand } from './screens/branding/brand';
import { startOffline } from './offline';

// The host's look (white-label or the platform's) is read at once, alongside the session.
void loadBrand();
render(<App />, document.getElementById('app')!);
// The service worker: the shell offline, the last state read with its age, Web Push.
startOffline();
