/**
 * What a visitor reads for a component. `unknown` when nothing is known yet (never shown as up);
 * `maintenance` while a maintenance window covers it, whatever its checks say.
 */
export const COMPONENT_STATES = ['operational', 'degraded', 'down', 'maintenance', 'unknown'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** The worst state first: a group or a page shows its worst component. */
const SEVERITY: Record<ComponentState, number> = { down: 4, degraded: 3, maintenance: 2, unknown: 1, operational: 0 };

export function worstState(states: readonly ComponentState[]): ComponentState {
  if (states.length === 0) return 'unknown';
  return states.reduce((worst, s) => (SEVERITY[s] > SEVERITY[worst] ? s : worst), 'operational' as ComponentState);
}

/** A page's headline for its worst state. */
export function headline(state: ComponentState): string {
  switch (state) {
    case 'operational':
      return 'All systems operational';
    case 'degraded':
      return 'Degraded performance';
    case 'down':
      return 'Major outage';
    case 'maintenance':
      return 'Maintenance in progress';
    default:
      return 'Status unknown';
  }
}

/** The last result of each location a monitor checks from: down anywhere = down, then degraded, else operational. */
export function monitorState(lastStatuses: readonly ('up' | 'degraded' | 'down')[], inMaintenance: boolean): ComponentState {
  if (inMaintenance) return 'maintenance';
  if (lastStatuses.length === 0) return 'unknown';
  if (lastStatuses.includes('down')) return 'down';
  if (lastStatuses.includes('degraded')) return 'degraded';
  return 'operational';
}

/** One day's bar. Seconds are location-seconds; `expectedSeconds` is the day's monitored time (after creation, until now). */
export interface DayCoverage {
  readonly upSeconds: number;
  readonly degradedSeconds: number;
  readonly downSeconds: number;
  readonly expectedSeconds: number;
  /** Seconds of the day a maintenance window covered. */
  readonly maintenanceSeconds: number;
}

export type DayState = 'up' | 'degraded' | 'down' | 'maintenance' | 'unknown';

export interface DayBar {
  readonly date: string;
  readonly state: DayState;
  /** Up (and degraded) of the known time, two decimals; null when nothing is known. */
  readonly uptimePercent: number | null;
}

/**
 * A day's bar: down if any down time was seen; otherwise maintenance when a window covered part of
 * it (shown apart, as the spec asks); unknown when results cover less than half the expected time
 * (a checker that did not run is not an up day); else degraded or up.
 */
export function dayBar(date: string, c: DayCoverage): DayBar {
  const known = c.upSeconds + c.degradedSeconds + c.downSeconds;
  const uptimePercent = known > 0 ? Math.floor(((c.upSeconds + c.degradedSeconds) / known) * 10_000) / 100 : null;
  let state: DayState;
  if (c.downSeconds > 0) state = 'down';
  else if (c.maintenanceSeconds > 0) state = 'maintenance';
  else if (c.expectedSeconds <= 0 || known < c.expectedSeconds / 2) state = 'unknown';
  else if (c.degradedSeconds > 0) state = 'degraded';
  else state = 'up';
  return { date, state, uptimePercent };
}
