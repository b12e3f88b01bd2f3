import type { MaintenanceWindow } from './maintenance-window';
import { occurrenceAt, type Occurrence, type RecurrenceExpander } from './occurrences';

export interface ActiveWindow {
  readonly window: MaintenanceWindow;
  readonly occurrence: Occurrence;
}

/** The windows covering a monitor whose occurrence runs at instant t. */
export function activeWindowsFor(
  windows: readonly MaintenanceWindow[],
  monitor: { monitorId: number; customerId: number },
  at: Date,
  expander: RecurrenceExpander,
): ActiveWindow[] {
  const active: ActiveWindow[] = [];
  for (const window of windows) {
    if (!window.coversMonitor(monitor)) continue;
    const occurrence = occurrenceAt(window, at, expander);
    if (occurrence) active.push({ window, occurrence });
  }
  return active;
}

/** Is this monitor in maintenance at instant t (any covering window running, whatever its options). */
export const isInMaintenance = (
  windows: readonly MaintenanceWindow[],
  monitor: { monitorId: number; customerId: number },
  at: Date,
  expander: RecurrenceExpander,
): boolean => activeWindowsFor(windows, monitor, at, expander).length > 0;

/**
 * The suppression rule: a result checked at t raises no alert when a window that covers the monitor
 * and suppresses alerts runs at t. Checks still run and are recorded either way.
 */
export const suppressesAlerts = (
  windows: readonly MaintenanceWindow[],
  monitor: { monitorId: number; customerId: number },
  at: Date,
  expander: RecurrenceExpander,
): boolean => activeWindowsFor(windows, monitor, at, expander).some((active) => active.window.suppressAlerts);

/** The spans within [from, to) to leave out of uptime: occurrences of covering windows that exclude uptime, merged. */
export function excludedSpans(
  windows: readonly MaintenanceWindow[],
  monitor: { monitorId: number; customerId: number },
  from: Date,
  to: Date,
  occurrences: (window: MaintenanceWindow) => Occurrence[],
): Occurrence[] {
  const spans = windows
    .filter((w) => w.excludeFromUptime && w.coversMonitor(monitor))
    .flatMap(occurrences)
    .map((o) => ({ start: new Date(Math.max(o.start.getTime(), from.getTime())), end: new Date(Math.min(o.end.getTime(), to.getTime())) }))
    .filter((o) => o.start.getTime() < o.end.getTime())
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  const merged: Occurrence[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start.getTime() <= last.end.getTime()) {
      merged[merged.length - 1] = { start: last.start, end: new Date(Math.max(last.end.getTime(), span.end.getTime())) };
    } else merged.push(span);
  }
  return merged;
}

/** The suppression rule for a watched customer IP or domain (blocklisting, expiry): a suppressing window covering it runs at t. */
export const suppressesAssetAlerts = (
  windows: readonly MaintenanceWindow[],
  asset: { type: 'customerIp' | 'customerDomain'; id: number; customerId: number },
  at: Date,
  expander: RecurrenceExpander,
): boolean => windows.some((w) => w.suppressAlerts && w.coversAsset(asset) && occurrenceAt(w, at, expander) !== null);
