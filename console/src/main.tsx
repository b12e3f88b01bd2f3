import { render } from 'preact';
import { App } from './app';
import { loadBrand } from './screens/branding/brand';

// The host's look (white-label or the platform's) is read at once, alongside the session.
void loadBrand();
render(<App />, document.getElementById('app')!);
