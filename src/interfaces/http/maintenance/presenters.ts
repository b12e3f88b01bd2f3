import type { MaintenanceCheck } from '../../../application/maintenance/check-maintenance';
import type { MaintenanceWindowView } from '../../../application/maintenance/window-view';
import type { Occurrence } from '../../../domain/maintenance/occurrences';

export const presentOccurrence = (o: Occurrence) => ({ startTime: o.start.toISOString(), endTime: o.end.toISOString() });

export const presentWindow = ({ window, targets, currentOccurrence, nextOccurrence }: MaintenanceWindowView) => ({
  id: window.publicId,
  key: window.key,
  customerId: window.customerId,
  title: window.title,
  description: window.description,
  startTime: window.startTime.toISOString(),
  endTime: window.endTime.toISOString(),
  timezone: window.timezone,
  rrule: window.rrule,
  durationMinutes: Math.round(window.durationMs / 60_000),
  targets: targets.map((t) => ({ type: t.type, id: t.id })),
  suppressAlerts: window.suppressAlerts,
  excludeFromUptime: window.excludeFromUptime,
  status: currentOccurrence ? ('in_progress' as const) : nextOccurrence ? ('scheduled' as const) : ('completed' as const),
  currentOccurrence: currentOccurrence ? presentOccurrence(currentOccurrence) : null,
  nextOccurrence: nextOccurrence ? presentOccurrence(nextOccurrence) : null,
  createdAt: window.createdAt.toISOString(),
  updatedAt: window.updatedAt.toISOString(),
});

export const presentCheck = (check: MaintenanceCheck) => ({
  websiteId: check.websiteId,
  at: check.at.toISOString(),
  inMaintenance: check.inMaintenance,
  suppressAlerts: check.suppressAlerts,
  excludeFromUptime: check.excludeFromUptime,
  windows: check.windows.map(({ window, occurrence }) => ({ id: window.publicId, title: window.title, ...presentOccurrence(occurrence) })),
});
