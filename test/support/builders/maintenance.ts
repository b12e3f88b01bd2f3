import { AnnounceMaintenance } from '../../../src/application/maintenance/announce-maintenance';
import { CheckMaintenance } from '../../../src/application/maintenance/check-maintenance';
import { CheckMaintenanceBatch } from '../../../src/application/maintenance/check-maintenance-batch';
import { CreateMaintenanceWindow } from '../../../src/application/maintenance/create-maintenance-window';
import { DeleteMaintenanceWindow } from '../../../src/application/maintenance/delete-maintenance-window';
import { GetMaintenanceWindow } from '../../../src/application/maintenance/get-maintenance-window';
import { ListMaintenanceWindows } from '../../../src/application/maintenance/list-maintenance-windows';
import { MaintenanceSuppression } from '../../../src/application/maintenance/maintenance-suppression';
import { PreviewOccurrences } from '../../../src/application/maintenance/preview-occurrences';
import { UpdateMaintenanceWindow } from '../../../src/application/maintenance/update-maintenance-window';
import { MaintenanceWindowViews } from '../../../src/application/maintenance/window-view';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { MaintenanceWindow } from '../../../src/domain/maintenance/maintenance-window';
import { ManualClock } from '../manual-clock';
import { immediateTransactions, sequentialIds } from '../fakes/shared-fakes';
import {
  FakeMaintenanceAnnouncements,
  FakeMaintenanceEvents,
  FakeMaintenanceTargets,
  FakeMaintenanceWindows,
  FakeRecurrence,
} from '../fakes/maintenance-fakes';

/** The monitor every maintenance test starts with: id 7 of customer 3 in organization 1. */
export const MAINTENANCE_MONITOR = '10000000-0000-4000-8000-000000000007';

export interface MaintenanceWorldOptions {
  /** The clock's start (2026-06-01T00:00:00Z). */
  readonly now?: string;
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
  /** How far back the announcer looks for occurrences (a day). */
  readonly lookbackMs?: number;
}

/**
 * The maintenance context on its fakes, wired as the composition root wires it: the window store,
 * the targets (monitor 7 of customer 3 in organization 1: `MAINTENANCE_MONITOR`), the recurrence,
 * the events and the announcement ledger, and every use case over them. Add targets with `monitor`
 * and `customer`.
 */
export function aMaintenanceWorld(options: MaintenanceWorldOptions = {}) {
  const clock = new ManualClock(options.now ?? '2026-06-01T00:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const windows = new FakeMaintenanceWindows();
  const targets = new FakeMaintenanceTargets();
  const events = new FakeMaintenanceEvents();
  const expander = new FakeRecurrence();
  const ledger = new FakeMaintenanceAnnouncements();
  const views = new MaintenanceWindowViews(targets, expander);
  const announcerOn = (sharedLedger = ledger) =>
    new AnnounceMaintenance(windows, targets, sharedLedger, events, expander, tx, clock, {
      lookbackMs: options.lookbackMs ?? 24 * 3600_000,
    });
  const world = {
    clock,
    tx,
    windows,
    targets,
    events,
    expander,
    ledger,
    views,
    create: new CreateMaintenanceWindow(windows, targets, events, views, expander, tx, sequentialIds(), clock),
    get: new GetMaintenanceWindow(windows, views, clock),
    list: new ListMaintenanceWindows(windows, targets, views, clock),
    update: new UpdateMaintenanceWindow(windows, targets, views, expander, tx, clock),
    remove: new DeleteMaintenanceWindow(windows, tx),
    check: new CheckMaintenance(windows, targets, expander, clock),
    batch: new CheckMaintenanceBatch(windows, targets, expander, clock),
    preview: new PreviewOccurrences(expander),
    suppression: new MaintenanceSuppression(windows, expander),
    announcer: announcerOn(),
    /** Another announcer (another worker), on the same ledger unless given one. */
    announcerOn,
    /** A monitor the windows can cover: a target, and a monitor the store knows. */
    monitor(id: number, publicId: string, customerId = 3, organizationId = 1) {
      targets.add('monitor', { id, publicId, customerId, organizationId });
      windows.monitors.set(id, { monitorId: id, publicId, customerId, organizationId });
      return world;
    },
    /** A customer a window can cover. */
    customer(id: number, publicId: string, organizationId = 1) {
      targets.add('customer', { id, publicId, customerId: id, organizationId });
      return world;
    },
  };
  return world.monitor(7, MAINTENANCE_MONITOR);
}

/** A stored window's domain object: a daily hour from 02:00 UTC over monitor 7 of customer 3, alerts held back. */
export const aMaintenanceWindow = (overrides: Partial<ConstructorParameters<typeof MaintenanceWindow>[0]> = {}) =>
  MaintenanceWindow.create(
    {
      publicId: '30000000-0000-4000-8000-000000000001',
      organizationId: 1,
      customerId: 3,
      title: 'Nightly',
      description: null,
      startTime: new Date('2026-06-01T02:00:00Z'),
      endTime: new Date('2026-06-01T03:00:00Z'),
      timezone: 'UTC',
      rrule: 'FREQ=DAILY',
      targets: [{ type: 'monitor', id: 7 }],
      suppressAlerts: true,
      excludeFromUptime: false,
      ...overrides,
    },
    new Date('2026-05-01T00:00:00Z'),
  );
