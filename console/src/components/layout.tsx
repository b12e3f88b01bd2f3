import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, describe, ok } from '../api/client';
import { liveEvents } from '../api/live-events';
import type { User } from '../session';
import { navigationFor } from '../screens';
import { useNavigationChanges } from '../screens/navigation-changes';
import { useRoute } from '../router';
import { Link } from './link';
import { ErrorText } from './field';
import { BrandMark } from '../screens/branding/brand-mark';
import '../phone.css';

/** The frame of every signed-in screen: where one can go, who is signed in, whether updates are live. */
export function Layout({ user, onSignedOut, children }: { user: User; onSignedOut: () => void; children: ComponentChildren }) {
  const [live, setLive] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  // On a phone the links and the person's part fold behind one button (the header stays one line).
  const [menuOpen, setMenuOpen] = useState(false);
  const { path } = useRoute();
  useEffect(() => setMenuOpen(false), [path]);
  useNavigationChanges();
  useEffect(() => liveEvents.onStatus(setLive), []);
  const signOut = async () => {
    try {
      await ok(api.POST('/api/auth/sign-out'));
      liveEvents.close();
      onSignedOut();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class={`top${menuOpen ? ' menu-open' : ''}`}>
        <nav aria-label="Main">
          <Link to="/" class="brand">
            <BrandMark />
          </Link>
          <button
            type="button"
            class="secondary menu-button"
            aria-expanded={menuOpen}
            aria-controls="main-links"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            Menu
          </button>
          <span id="main-links" class="nav-links">
            {navigationFor(user).map((item) => (
              <Link key={item.to} to={item.to}>
                {item.label}
              </Link>
            ))}
          </span>
        </nav>
        <div class="who">
          <span class={`live ${live ? 'live-on' : 'live-off'}`} role="status">
            {live === null ? 'Connecting…' : live ? 'Live' : 'Reconnecting…'}
          </span>
          <span class="user" title={user.name}>
            {user.name}
          </span>
          <button type="button" class="secondary sign-out" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <ErrorText message={error} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
