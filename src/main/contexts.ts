import type { ContextModule } from './modules/context-module';
import { platformContext } from './modules/platform.module';
import { identityContext } from './modules/identity.module';
import { tenancyContext } from './modules/tenancy.module';
import { agentAccessContext } from './modules/agent-access.module';
import { checksContext } from './modules/checks.module';
import { incidentsContext } from './modules/incidents.module';
import { resultsContext } from './modules/results.module';
import { watchesContext } from './modules/watches.module';
import { monitoringContext } from './modules/monitoring.module';
import { locationsContext } from './modules/locations.module';
import { maintenanceContext } from './modules/maintenance.module';
import { schedulingContext } from './modules/scheduling.module';
import { notificationsContext } from './modules/notifications.module';
import { statusPagesContext } from './modules/status-pages.module';
import { dataExportContext } from './modules/data-export.module';
import { reportsContext } from './modules/reports.module';
import { serviceLevelsContext } from './modules/service-levels.module';
import { customDomainsContext } from './modules/custom-domains.module';
import { onCallContext } from './modules/on-call.module';
import { billingContext } from './modules/billing.module';
import { incidentManagementContext } from './modules/incident-management.module';
import { platformAdminContext } from './modules/platform-admin.module';
import { auditContext } from './modules/audit.module';
import { metricsContext } from './modules/metrics.module';
import { probesContext } from './modules/probes.module';
import { liveEventsContext } from './modules/live-events.module';
import { mcpContext } from './modules/mcp.module';
import { overviewContext } from './modules/overview.module';

/**
 * Every bounded context of the service, each declared whole in its module (bindings, entities,
 * routers, intakes, front handlers, jobs, workers, closers). Adding a context is adding its line
 * here. Bindings load in this order, routes and front handlers register in it, workers start in it
 * (and stop in its reverse), closers close in its reverse.
 */
export const CONTEXTS: readonly ContextModule[] = [
  platformContext,
  identityContext,
  tenancyContext,
  agentAccessContext,
  checksContext,
  incidentsContext,
  resultsContext,
  monitoringContext,
  locationsContext,
  maintenanceContext,
  schedulingContext,
  watchesContext,
  notificationsContext,
  statusPagesContext,
  dataExportContext,
  reportsContext,
  serviceLevelsContext,
  customDomainsContext,
  onCallContext,
  billingContext,
  incidentManagementContext,
  platformAdminContext,
  auditContext,
  metricsContext,
  probesContext,
  liveEventsContext,
  overviewContext,
  mcpContext,
];
