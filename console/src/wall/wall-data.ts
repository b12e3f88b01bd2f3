import createClient from 'openapi-fetch';
import type { paths } from '../api/schema';
import { ok } from '../api/client';
import { byUrgency, type ConsoleState, type OverviewRow } from '../monitors/monitor-rows';

/** Where the wall keeps its token: this tab's session storage (gone when the tab closes), never an address. */
const TOKEN_KEY = 'wsm-wall-token';

/**
 * The wall's token: taken once from the address's fragment (`/app/wall#token=wsm_...`, a part of
 * the address the browser never sends), which is then removed from the address bar and history;
 * else the one this tab kept.
 */
export function takeWallToken(): string | null {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const given = fragment.get('token');
  if (given) {
    keepWallToken(given);
    window.history.replaceState(null, '', window.location.pathname);
    return given;
  }
  return window.sessionStorage.getItem(TOKEN_KEY);
}

export function keepWallToken(token: string): void {
  window.sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetWallToken(): void {
  window.sessionStorage.removeItem(TOKEN_KEY);
}

/** The public API with the wall's token (no cookie: the wall is not a signed-in user's page). */
export function wallApi(token: string) {
  return createClient<paths>({
    baseUrl: window.location.origin,
    credentials: 'omit',
    headers: { authorization: `Bearer ${token}` },
  });
}
type WallApi = ReturnType<typeof wallApi>;

/** Who the token acts as: the wall shows only for a read-only one. */
export async function wallRole(client: WallApi): Promise<string> {
  return (await ok(client.GET('/api/auth/get-session'))).user.role;
}

/** What the wall keeps of a monitor: a tile's words, nothing more (10,000 of these stay small). */
export interface WallMonitor {
  readonly id: string;
  readonly name: string;
  readonly customer: string;
  readonly target: string;
  readonly state: ConsoleState;
  readonly inMaintenance: boolean;
}

const PER_PAGE = 1000;

/** Every monitor of the token's scope, most urgent first (down, degraded, unknown, ...). */
export async function loadWallMonitors(client: WallApi): Promise<WallMonitor[]> {
  const page = (n: number) => ok(client.GET('/api/monitor-overview', { params: { query: { page: n, perPage: PER_PAGE } } }));
  const first = await page(1);
  const rows: OverviewRow[] = [...first.items];
  for (let n = 2; n <= Math.ceil(first.total / PER_PAGE); n++) rows.push(...(await page(n)).items);
  return rows.sort(byUrgency).map((row) => ({
    id: row.publicId,
    name: row.name,
    customer: row.customerName,
    target: row.target ?? row.monitoringType,
    state: row.state,
    inMaintenance: row.inMaintenance,
  }));
}

/** A monitor.stateChanged event's state, as the overview reads it (maintenance stays maintenance). */
export function patchedState(monitor: WallMonitor, state: string): ConsoleState {
  if (state === 'paused') return 'paused';
  if (monitor.inMaintenance) return 'maintenance';
  if (state === 'down' || state === 'unknown' || state === 'up') return state;
  return monitor.state;
}
