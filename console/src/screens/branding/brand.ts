import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { accentFor } from './colors';

/** The platform's own name: shown only where no organization's look applies. */
export const PLATFORM_NAME = 'Monitoring';

/** The look the console wears under the host it was opened by (GET /api/branding). */
export interface Brand {
  readonly whiteLabel: boolean;
  readonly name: string;
  readonly logo: string | null;
  readonly accentColor: string | null;
}

const PLATFORM: Brand = { whiteLabel: false, name: PLATFORM_NAME, logo: null, accentColor: null };

let current: Brand | null = null;
let pending: Promise<Brand> | null = null;
const listeners = new Set<(brand: Brand) => void>();
const dark = window.matchMedia('(prefers-color-scheme: dark)');

/** The page's title and accent colours for a look (CSSOM custom properties: the CSP allows them, no inline style). */
function apply(brand: Brand): void {
  document.title = `${brand.name} console`;
  const root = document.documentElement.style;
  const accent = brand.accentColor ? accentFor(brand.accentColor, dark.matches) : null;
  if (accent) {
    root.setProperty('--accent', accent.accent);
    root.setProperty('--accent-text', accent.text);
  } else {
    root.removeProperty('--accent');
    root.removeProperty('--accent-text');
  }
}
dark.addEventListener('change', () => current && apply(current));

function settle(brand: Brand): Brand {
  current = brand;
  apply(brand);
  listeners.forEach((listener) => listener(brand));
  return brand;
}

/**
 * Reads the host's look once (public: the sign-in page needs it too). On a white-label host it is
 * the organization's name, logo and accent; anywhere else, or when the call fails, the platform's.
 */
export function loadBrand(): Promise<Brand> {
  pending ??= ok(api.GET('/api/branding')).then(
    (answer) => settle(answer.whiteLabel && answer.name ? { ...answer, name: answer.name } : PLATFORM),
    () => settle(PLATFORM),
  );
  return pending;
}

/** After the organization changed its look: read it again. */
export function reloadBrand(): Promise<Brand> {
  pending = null;
  return loadBrand();
}

/** The look now (null while it is read: nothing is shown, so the platform's name never flashes on a white-label host). */
export function useBrand(): Brand | null {
  const [brand, setBrand] = useState(current);
  useEffect(() => {
    listeners.add(setBrand);
    // The look may have been read between the first render and this effect (the sign-in page draws at
    // once when there is no session to ask about): take it from the read itself, not only from a listener.
    void loadBrand().then(setBrand);
    return () => void listeners.delete(setBrand);
  }, []);
  return brand;
}
