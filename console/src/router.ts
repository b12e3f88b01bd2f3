import { useEffect, useState } from 'preact/hooks';

/** The console lives under /app; screens are addressed by the rest of the path. */
export const BASE = '/app';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

/** Goes to a console path (`/monitors/...`) without a reload. */
export function navigate(path: string, replace = false): void {
  const url = `${BASE}${path}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

/** The current console path (without /app), and its query. */
export function useRoute(): { path: string; query: URLSearchParams } {
  const read = () => ({
    path: window.location.pathname.slice(BASE.length).replace(/\/+$/, '') || '/',
    query: new URLSearchParams(window.location.search),
  });
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const update = () => setRoute(read());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return route;
}

/** A path's parameters against a pattern (`/monitors/:id`), or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(have[i]!);
    else if (part !== have[i]) return null;
  }
  return params;
}
