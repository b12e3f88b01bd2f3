import 'reflect-metadata';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../application/shared/clock';
import type { Database } from '../infrastructure/persistence/database';
import type { AppConfig } from './config';
import { platformModule } from './modules/platform.module';
import { schedulingModule } from './modules/scheduling.module';
import { identityModule } from './modules/identity.module';
import { agentAccessModule } from './modules/agent-access.module';
import { checksModule } from './modules/checks.module';
import { incidentsModule } from './modules/incidents.module';
import { tenancyModule } from './modules/tenancy.module';
import { monitoringModule } from './modules/monitoring.module';
import { metricsModule } from './modules/metrics.module';
import { notificationsModule } from './modules/notifications.module';
import { maintenanceModule } from './modules/maintenance.module';
import { onCallModule } from './modules/on-call.module';
import { incidentManagementModule } from './modules/incident-management.module';
import { statusPagesModule } from './modules/status-pages.module';
import { customDomainsModule } from './modules/custom-domains.module';
import { dataExportModule } from './modules/data-export.module';
import { reportsModule } from './modules/reports.module';
import { billingModule } from './modules/billing.module';
import { platformAdminModule } from './modules/platform-admin.module';
import { auditModule } from './modules/audit.module';

/** The one composition root: every context's module, bound over the shared platform adapters. */
export function createContainer(config: AppConfig, logger: Logger, database: Database, clock?: Clock): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(
    platformModule(config, logger, database, clock),
    identityModule,
    tenancyModule,
    agentAccessModule,
    checksModule,
    incidentsModule,
    monitoringModule,
    maintenanceModule,
    schedulingModule,
    notificationsModule,
    statusPagesModule,
    dataExportModule,
    reportsModule,
  );
  container.load(customDomainsModule);
  container.load(onCallModule);
  container.load(billingModule);
  container.load(incidentManagementModule);
  container.load(platformAdminModule);
  container.load(auditModule);
  container.load(metricsModule(config, database));
  return container;
}
