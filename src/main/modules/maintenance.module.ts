import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { MAINTENANCE_WINDOWS } from '../../application/incidents/ports';
import { UPTIME_EXCLUSIONS } from '../../application/results/ports';
import { MAINTENANCE_NOW } from '../../application/overview/ports';
import { MaintenanceNowQuery } from '../../application/maintenance/maintenance-now-query';
import {
  MAINTENANCE_ANNOUNCEMENTS,
  MAINTENANCE_EVENTS,
  MAINTENANCE_TARGETS,
  MAINTENANCE_WINDOW_REPOSITORY,
  RECURRENCE_EXPANDER,
} from '../../application/maintenance/ports';
import { MaintenanceWindowViews } from '../../application/maintenance/window-view';
import { CreateMaintenanceWindow } from '../../application/maintenance/create-maintenance-window';
import { ListMaintenanceWindows } from '../../application/maintenance/list-maintenance-windows';
import { GetMaintenanceWindow } from '../../application/maintenance/get-maintenance-window';
import { UpdateMaintenanceWindow } from '../../application/maintenance/update-maintenance-window';
import { DeleteMaintenanceWindow } from '../../application/maintenance/delete-maintenance-window';
import { CheckMaintenance } from '../../application/maintenance/check-maintenance';
import { CheckMaintenanceBatch } from '../../application/maintenance/check-maintenance-batch';
import { PreviewOccurrences } from '../../application/maintenance/preview-occurrences';
import { AnnounceMaintenance } from '../../application/maintenance/announce-maintenance';
import { MaintenanceSuppression } from '../../application/maintenance/maintenance-suppression';
import { MaintenanceUptimeExclusions } from '../../application/maintenance/maintenance-uptime-exclusions';
import { AssetMaintenance } from '../../application/maintenance/asset-maintenance';
import { RruleRecurrenceExpander } from '../../infrastructure/maintenance/rrule-recurrence-expander';
import { SqlMaintenanceWindowRepository } from '../../infrastructure/maintenance/sql-maintenance-window.repository';
import { SqlMaintenanceTargets } from '../../infrastructure/maintenance/sql-maintenance-targets';
import { OutboxEventPublisher } from '../../infrastructure/outbox/outbox-publisher';
import { maintenanceEventCodec } from '../../domain/maintenance/events';
import { SqlMaintenanceAnnouncements } from '../../infrastructure/maintenance/sql-maintenance-announcements';
import { POOL_SQL, SQL } from '../tokens';
import { bindings } from './bindings';
import { maintenanceWindowsRouter } from '../../interfaces/http/maintenance/maintenance-windows.router';
import { maintenanceAnnouncementsJob } from '../../interfaces/jobs/maintenance-announcements.job';
import type { ContextModule } from './context-module';

/** How far back the announcer still announces a transition it missed (a worker down longer skips older ones). */
const ANNOUNCE_LOOKBACK_MS = 24 * 60 * 60_000;

/** Maintenance windows: their API, the alert suppression the check engine asks for, and the start/end announcements. */
export const maintenanceModule = bindings(({ single }) => {
  single(RECURRENCE_EXPANDER, () => new RruleRecurrenceExpander());
  single(MAINTENANCE_WINDOW_REPOSITORY, (c) => new SqlMaintenanceWindowRepository(c.get(POOL_SQL), c.get(SQL)));
  single(MAINTENANCE_TARGETS, (c) => new SqlMaintenanceTargets(c.get(POOL_SQL)));
  single(MAINTENANCE_EVENTS, (c) => new OutboxEventPublisher(c.get(POOL_SQL), maintenanceEventCodec));
  single(MAINTENANCE_ANNOUNCEMENTS, (c) => new SqlMaintenanceAnnouncements(c.get(POOL_SQL)));
  single(MAINTENANCE_WINDOWS, (c) => new MaintenanceSuppression(c.get(MAINTENANCE_WINDOW_REPOSITORY), c.get(RECURRENCE_EXPANDER)));
  single(UPTIME_EXCLUSIONS, (c) => new MaintenanceUptimeExclusions(c.get(MAINTENANCE_WINDOW_REPOSITORY), c.get(RECURRENCE_EXPANDER)));
  single(MAINTENANCE_NOW, (c) => new MaintenanceNowQuery(c.get(MAINTENANCE_WINDOW_REPOSITORY), c.get(RECURRENCE_EXPANDER)));

  single(MaintenanceWindowViews, (c) => new MaintenanceWindowViews(c.get(MAINTENANCE_TARGETS), c.get(RECURRENCE_EXPANDER)));
  single(
    CreateMaintenanceWindow,
    (c) =>
      new CreateMaintenanceWindow(
        c.get(MAINTENANCE_WINDOW_REPOSITORY),
        c.get(MAINTENANCE_TARGETS),
        c.get(MAINTENANCE_EVENTS),
        c.get(MaintenanceWindowViews),
        c.get(RECURRENCE_EXPANDER),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  single(
    ListMaintenanceWindows,
    (c) =>
      new ListMaintenanceWindows(
        c.get(MAINTENANCE_WINDOW_REPOSITORY),
        c.get(MAINTENANCE_TARGETS),
        c.get(MaintenanceWindowViews),
        c.get(CLOCK),
      ),
  );
  single(
    GetMaintenanceWindow,
    (c) => new GetMaintenanceWindow(c.get(MAINTENANCE_WINDOW_REPOSITORY), c.get(MaintenanceWindowViews), c.get(CLOCK)),
  );
  single(
    UpdateMaintenanceWindow,
    (c) =>
      new UpdateMaintenanceWindow(
        c.get(MAINTENANCE_WINDOW_REPOSITORY),
        c.get(MAINTENANCE_TARGETS),
        c.get(MaintenanceWindowViews),
        c.get(RECURRENCE_EXPANDER),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
      ),
  );
  single(DeleteMaintenanceWindow, (c) => new DeleteMaintenanceWindow(c.get(MAINTENANCE_WINDOW_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(
    CheckMaintenance,
    (c) => new CheckMaintenance(c.get(MAINTENANCE_WINDOW_REPOSITORY), c.get(MAINTENANCE_TARGETS), c.get(RECURRENCE_EXPANDER), c.get(CLOCK)),
  );
  single(
    CheckMaintenanceBatch,
    (c) =>
      new CheckMaintenanceBatch(c.get(MAINTENANCE_WINDOW_REPOSITORY), c.get(MAINTENANCE_TARGETS), c.get(RECURRENCE_EXPANDER), c.get(CLOCK)),
  );
  single(AssetMaintenance, (c) => new AssetMaintenance(c.get(MAINTENANCE_WINDOW_REPOSITORY), c.get(RECURRENCE_EXPANDER)));
  single(PreviewOccurrences, (c) => new PreviewOccurrences(c.get(RECURRENCE_EXPANDER)));
  single(
    AnnounceMaintenance,
    (c) =>
      new AnnounceMaintenance(
        c.get(MAINTENANCE_WINDOW_REPOSITORY),
        c.get(MAINTENANCE_TARGETS),
        c.get(MAINTENANCE_ANNOUNCEMENTS),
        c.get(MAINTENANCE_EVENTS),
        c.get(RECURRENCE_EXPANDER),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
        { lookbackMs: ANNOUNCE_LOOKBACK_MS },
      ),
  );
});

export const maintenanceContext: ContextModule = {
  name: 'maintenance',
  bindings: maintenanceModule,
  routers: [maintenanceWindowsRouter],
  jobs: [maintenanceAnnouncementsJob],
};
