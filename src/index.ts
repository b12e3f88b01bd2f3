/**
 * The monitoring service as a library: the domain's errors and identity model, every context's use
 * cases with their ports and tokens, and a composition that wires them to PostgreSQL without any
 * HTTP framework (Express is never loaded). The Express host is a separate entry point
 * (`monitoring-service/http`).
 *
 * Every module of the application layer is re-exported whole, so a use case added there is part of
 * the library (test/unit/main/library-exports.test.ts holds it to that). The few type names two
 * contexts share are exported under one meaning and again with a prefix (see the end of the list).
 */
import 'reflect-metadata';
import pino, { type Logger } from 'pino';
import type { Container } from 'inversify';
import { RequestContext } from '@mikro-orm/postgresql';
import { loadConfig, runsChecks, type AppConfig } from './main/config';
import { createContainer } from './main/container';
import { checkWorkerOptions } from './main/check-worker-options';
import { openDatabase, type Database } from './infrastructure/persistence/database';
import { startEmbeddedPostgres } from './infrastructure/persistence/embedded-postgres';
import { PreparedSql } from './infrastructure/persistence/prepared-sql';
import { ChromiumBrowser } from './infrastructure/protocols/browser/chromium-browser';
import { startCheckWorker, type CheckWorker } from './interfaces/jobs/check-worker';
import { CheckDispatcher } from './application/scheduling/check-dispatcher';

// The domain: errors, tenant scope, and the identity model.
export { AppError, isAppError } from './domain/shared/app-error';
export { ERROR_CODES, type ErrorCode } from './domain/shared/error-codes';
export type { TenantScope } from './domain/shared/tenant-scope';
export * from './domain/identity/organization';
export * from './domain/identity/user';
export * from './domain/identity/role';
export * from './domain/identity/vat-id';
export * from './domain/identity/api-token';
export * from './domain/identity/account-deletion';
export * from './domain/identity/step-up';

// The application layer, context by context: use cases, their ports and the ports' tokens.
// agent-access
export * from './application/agent-access/claim-credentials';
export * from './application/agent-access/claim-lookup';
export * from './application/agent-access/confirm-claim';
export * from './application/agent-access/decide-consent';
export * from './application/agent-access/delete-connection';
export * from './application/agent-access/exchange-assertion';
export * from './application/agent-access/exchange-id-jag';
export * from './application/agent-access/get-claim-context';
export * from './application/agent-access/grantee';
export * from './application/agent-access/handle-security-event';
export * from './application/agent-access/issue-access-token';
export * from './application/agent-access/list-connections';
export * from './application/agent-access/mint-access-token';
export * from './application/agent-access/oauth-connection';
export * from './application/agent-access/poll-claim';
export * from './application/agent-access/ports';
export * from './application/agent-access/purge-stale-agent-records';
export * from './application/agent-access/rate-limits';
export * from './application/agent-access/redeem-claim-token';
export * from './application/agent-access/register-agent';
export * from './application/agent-access/request-id-jag-approval';
export * from './application/agent-access/revoke-token';
export * from './application/agent-access/rotate-signing-key';
export * from './application/agent-access/save-claim';
// checks
export * from './application/checks/check-deadline';
export * from './application/checks/checker-registry';
export * from './application/checks/get-screenshot';
export * from './application/checks/heartbeat-checker';
export * from './application/checks/ports';
export * from './application/checks/run-check';
export * from './application/checks/run-public-tool';
// identity
export * from './application/identity/account-deletion';
export * from './application/identity/api-tokens';
export * from './application/identity/authenticate-caller';
export * from './application/identity/check-health';
export * from './application/identity/check-readiness';
export * from './application/identity/ensure-platform-admin';
export * from './application/identity/organization-settings';
export * from './application/identity/validate-vat-id';
export * from './application/identity/ports';
export * from './application/identity/sessions';
export * from './application/identity/sign-in';
export * from './application/identity/sign-out';
export * from './application/identity/sign-up';
export * from './application/identity/two-factor';
export * from './application/identity/user-administration';
export * from './application/identity/verify-totp';
// incidents
export * from './application/incidents/acknowledge-incident';
export * from './application/incidents/alert-actions';
export * from './application/incidents/apply-routed-incident-change';
export * from './application/incidents/create-manual-incident';
export * from './application/incidents/delete-incident';
export * from './application/incidents/get-incident';
export * from './application/incidents/list-incidents';
export * from './application/incidents/ports';
export * from './application/incidents/record-check-result';
export * from './application/incidents/resolve-incident';
export * from './application/incidents/steady-memo';
export * from './application/incident-management/add-im-incident-responder';
export * from './application/incident-management/acknowledge-im-incident';
export * from './application/incident-management/admit-im-event';
export * from './application/incident-management/alert-source-routing';
export * from './application/incident-management/bulk-im-incident-action';
export * from './application/incident-management/manage-im-routing';
export * from './application/incident-management/route-monitor-incident';
export * from './application/incident-management/change-im-incident-status';
export * from './application/incident-management/create-alert-source';
export * from './application/incident-management/create-im-incident';
export * from './application/incident-management/find-im-incident';
export * from './application/incident-management/get-im-incident';
export * from './application/incident-management/ingest-alert-payload';
export * from './application/incident-management/list-im-incidents';
export * from './application/incident-management/manage-alert-sources';
export * from './application/incident-management/merge-im-incidents';
export * from './application/incident-management/monitor-incident-sync';
export * from './application/incident-management/ports';
export * from './application/incident-management/process-im-event';
export * from './application/incident-management/resolve-im-incident';
export * from './application/incident-management/retry-im-outbound';
export * from './application/incident-management/send-test-alert';
export * from './application/incident-management/snooze-im-incident';
export * from './application/incident-management/team-membership';
// custom domains
export * from './application/custom-domains/activate-custom-domain';
export * from './application/custom-domains/active-hosts';
export * from './application/custom-domains/add-custom-domain';
export * from './application/custom-domains/custom-domain-access';
export * from './application/custom-domains/domain-ownership';
export * from './application/custom-domains/get-custom-domain';
export * from './application/custom-domains/list-custom-domains';
export * from './application/custom-domains/ports';
export * from './application/custom-domains/purge-expired-custom-domains';
export * from './application/custom-domains/remove-custom-domain';
export * from './application/custom-domains/verify-custom-domain';
// maintenance
export * from './application/maintenance/asset-maintenance';
export * from './application/maintenance/announce-maintenance';
export * from './application/maintenance/check-maintenance';
export * from './application/maintenance/check-maintenance-batch';
export * from './application/maintenance/create-maintenance-window';
export * from './application/maintenance/delete-maintenance-window';
export * from './application/maintenance/get-maintenance-window';
export * from './application/maintenance/list-maintenance-windows';
export * from './application/maintenance/maintenance-suppression';
export * from './application/maintenance/maintenance-uptime-exclusions';
export * from './application/maintenance/ports';
export * from './application/maintenance/preview-occurrences';
export * from './application/maintenance/update-maintenance-window';
export * from './application/maintenance/window-input';
export * from './application/maintenance/window-view';
// status pages
export * from './application/status-pages/announce-to-subscribers';
export * from './application/status-pages/build-public-status-page';
export * from './application/status-pages/create-page-incident';
export * from './application/status-pages/create-status-page';
export * from './application/status-pages/delete-status-page';
export * from './application/status-pages/get-public-status-page';
export * from './application/status-pages/get-status-page';
export * from './application/status-pages/list-page-incidents';
export * from './application/status-pages/list-status-pages';
export * from './application/status-pages/manage-subscription';
export * from './application/status-pages/page-components';
export * from './application/status-pages/page-incident-notices';
export * from './application/status-pages/page-incident-views';
export * from './application/status-pages/page-input';
export * from './application/status-pages/page-lookup';
export * from './application/status-pages/page-subscribers';
export * from './application/status-pages/page-view';
export * from './application/status-pages/ports';
export * from './application/status-pages/post-page-incident-update';
export * from './application/status-pages/public-status-page';
export * from './application/status-pages/sign-in-to-status-page';
export * from './application/status-pages/subscribe-to-status-page';
export * from './application/status-pages/subscriber-messages';
export * from './application/status-pages/subscriber-notices';
export * from './application/status-pages/update-status-page';
// monitoring
export * from './application/monitoring/attach-tag';
export * from './application/monitoring/create-monitor';
export * from './application/monitoring/create-tag';
export * from './application/monitoring/delete-monitor';
export * from './application/monitoring/delete-tag';
export * from './application/monitoring/detach-tag';
export * from './application/monitoring/file-change-request';
export * from './application/monitoring/get-monitor';
export * from './application/monitoring/list-change-requests';
export * from './application/monitoring/list-monitors';
export * from './application/monitoring/list-tags';
export * from './application/monitoring/list-websites';
export * from './application/monitoring/load-monitor';
export * from './application/monitoring/monitor-editor';
export * from './application/monitoring/monitor-records';
export * from './application/monitoring/monitor-tagging';
export * from './application/monitoring/monitor-writer';
export * from './application/monitoring/plan-context';
export * from './application/monitoring/ports';
export * from './application/monitoring/record-heartbeat';
export * from './application/monitoring/settle-change-request';
export * from './application/monitoring/show-website';
export * from './application/monitoring/target-vetting';
export * from './application/monitoring/update-monitor';
export * from './application/monitoring/update-tag';
export * from './application/monitoring/update-website-check-config';
// observability
export * from './application/observability/metered-outcome-recorder';
export * from './application/observability/ports';
// on-call
export * from './application/on-call/add-schedule-override';
export * from './application/on-call/create-escalation-policy';
export * from './application/on-call/create-im-team';
export * from './application/on-call/manage-contact-methods';
export * from './application/on-call/escalate-im-incident-now';
export * from './application/on-call/escalation-pager';
export * from './application/on-call/create-schedule';
export * from './application/on-call/delete-escalation-policy';
export * from './application/on-call/delete-im-team';
export * from './application/on-call/delete-schedule';
export * from './application/on-call/escalation-targets';
export * from './application/on-call/get-escalation-policy';
export * from './application/on-call/get-im-team';
export * from './application/on-call/get-schedule';
export * from './application/on-call/get-schedule-timeline';
export * from './application/on-call/im-access';
export * from './application/on-call/issue-calendar-feed';
export * from './application/on-call/list-escalation-policies';
export * from './application/on-call/list-im-teams';
export * from './application/on-call/list-schedules';
export * from './application/on-call/ports';
export * from './application/on-call/read-calendar-feed';
export * from './application/on-call/remove-im-team-member';
export * from './application/on-call/remove-schedule-override';
export * from './application/on-call/run-due-escalations';
export * from './application/on-call/schedule-access';
export * from './application/on-call/set-im-team-member';
export * from './application/on-call/update-escalation-policy';
export * from './application/on-call/update-im-team';
export * from './application/on-call/update-schedule';
export * from './application/on-call/who-is-on-call';
// platform-admin
export * from './application/platform-admin/change-user-activation';
export * from './application/platform-admin/get-admin-organization';
export * from './application/platform-admin/get-admin-user';
export * from './application/platform-admin/get-platform-usage';
export * from './application/platform-admin/list-admin-organizations';
export * from './application/platform-admin/list-admin-users';
export * from './application/platform-admin/platform-staff';
export * from './application/platform-admin/ports';
// reports
export * from './application/reports/create-report';
export * from './application/reports/delete-report';
export * from './application/reports/get-report';
export * from './application/reports/get-report-pdf';
export * from './application/reports/get-report-run';
export * from './application/reports/list-report-runs';
export * from './application/reports/list-reports';
export * from './application/reports/ports';
export * from './application/reports/report-input';
export * from './application/reports/report-runner';
export * from './application/reports/report-view';
export * from './application/reports/run-due-reports';
export * from './application/reports/run-report-now';
export * from './application/reports/set-report-logo';
export * from './application/reports/update-report';
// billing
export * from './application/billing/apply-discount';
export * from './application/billing/billing-access';
export * from './application/billing/change-quota-tier';
export * from './application/billing/charging-tier-upgrades';
export * from './application/billing/custom-pricing';
export * from './application/billing/get-quota-tiers';
export * from './application/billing/ports';
export * from './application/billing/settle-mandate';
export * from './application/billing/start-mandate';
export * from './application/billing/tier-charges';
// results
export * from './application/results/get-check-history';
export * from './application/results/get-uptime-stats';
export * from './application/results/maintain-result-storage';
export * from './application/results/ports';
// scheduling
export * from './application/scheduling/check-dispatcher';
export * from './application/scheduling/monitor-check-request';
export * from './application/scheduling/ports';
export * from './application/scheduling/record-outcomes';
export * from './application/scheduling/trigger-check';
// shared
export * from './application/shared/actor';
export * from './application/shared/clock';
export * from './application/shared/id-generator';
export * from './application/shared/rate-limiter';
export * from './application/shared/target-policy';
export * from './application/shared/transaction';
// tenancy
export * from './application/tenancy/add-customer-domain';
export * from './application/tenancy/add-customer-ip';
export * from './application/tenancy/create-custom-field';
export * from './application/tenancy/create-customer';
export * from './application/tenancy/create-customers-in-bulk';
export * from './application/tenancy/create-package-config';
export * from './application/tenancy/customer-access';
export * from './application/tenancy/customer-factory';
export * from './application/tenancy/customer-terms';
export * from './application/tenancy/customer-views';
export * from './application/tenancy/delete-custom-field';
export * from './application/tenancy/delete-customer-domain';
export * from './application/tenancy/delete-customer-ip';
export * from './application/tenancy/delete-customer';
export * from './application/tenancy/delete-package-config';
export * from './application/tenancy/get-customer-domain';
export * from './application/tenancy/get-customer-ip';
export * from './application/tenancy/get-customer';
export * from './application/tenancy/get-package-config';
export * from './application/tenancy/get-sms-usage';
export * from './application/tenancy/ip-input';
export * from './application/tenancy/list-custom-fields';
export * from './application/tenancy/list-customer-domains';
export * from './application/tenancy/list-customer-ips';
export * from './application/tenancy/list-customers';
export * from './application/tenancy/list-package-configs';
export * from './application/tenancy/package-catalog';
export * from './application/tenancy/ports';
export * from './application/tenancy/update-custom-field';
export * from './application/tenancy/update-customer-domain';
export * from './application/tenancy/update-customer-ip';
export * from './application/tenancy/update-customer';
export * from './application/tenancy/update-package-config';
// notifications
export * from './application/data-export/ports';
export * from './application/data-export/request-data-export';
export * from './application/data-export/list-data-exports';
export * from './application/data-export/download-data-export';
export * from './application/data-export/generate-data-exports';
export * from './domain/data-export/data-export';
export * from './application/audit/ports';
export * from './application/audit/list-audit-log';
export * from './application/audit/purge-audit-log';
export * from './domain/audit/audit-entry';
export * from './application/notifications/create-notification-channel';
export * from './application/notifications/deliver-due-notifications';
export * from './application/notifications/deliver-due-direct-messages';
export * from './application/notifications/list-notification-deliveries';
export * from './application/notifications/route-outbox-events';
export * from './application/notifications/delete-notification-channel';
export * from './application/notifications/get-notification-channel';
export * from './application/notifications/get-organization-smtp';
export * from './application/notifications/list-notification-channels';
export * from './application/notifications/ports';
export * from './application/notifications/remove-organization-smtp';
export * from './application/notifications/route-channel-event';
export * from './application/notifications/send-manual-alert';
export * from './application/notifications/send-test-notification';
export * from './application/notifications/sms-channel-sender';
export * from './application/notifications/update-notification-channel';
export * from './application/notifications/update-organization-smtp';
export * from './application/notifications/webhook-secrets';
export * from './application/notifications/default-channel';
export * from './application/notifications/fall-back-from-failing-channels';
export * from './application/notifications/settle-batches';
export * from './domain/notifications/channel-config';
export * from './domain/notifications/channel-events';
export * from './domain/notifications/channel-routing';
export * from './domain/notifications/delivery-schedule';
export * from './domain/notifications/notification-message';
export * from './domain/notifications/notification-channel';
export * from './domain/notifications/sms-text';
export * from './domain/notifications/organization-smtp';
export * from './domain/notifications/storm-digest';
export * from './domain/notifications/channel-health';
// watches
export * from './application/watches/ports';
export * from './application/watches/run-watches';

// Names two contexts define alike: identity's and tenancy's under their own name, the others prefixed.
export type { MintedToken } from './application/identity/api-tokens';
export type { MintedToken as AgentMintedToken } from './application/agent-access/mint-access-token';
export type { Page, RecordRef } from './application/tenancy/ports';
export type { Page as MonitorPage, RecordRef as MonitorRecordRef } from './application/monitoring/ports';

// The check worker (the engine's loop) and the configuration.
export { startCheckWorker, type CheckWorker, type CheckWorkerOptions } from './interfaces/jobs/check-worker';
export { loadConfig, ConfigError, type AppConfig } from './main/config';

export interface MonitoringLibrary {
  /** Resolve any use case: `library.get(ApiTokens).mint(actor, 'organization', {...})`. */
  get<T>(useCase: abstract new (...args: never[]) => T): T;
  /** Run calls inside one unit of work (one ORM context), as the HTTP host does per request. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Starts the check engine in this process, as the host does: it runs the checks of CHECK_LOCATIONS
   * and records their results (trigger-check makes a website due at once). Stopped by `close`.
   */
  startCheckWorker(): CheckWorker;
  readonly container: Container;
  close(): Promise<void>;
}

/**
 * Opens the library on PostgreSQL (DATABASE_URL, or an embedded server under DATA_DIR), applies
 * migrations and wires every use case. No HTTP server is started and Express is never loaded.
 */
export async function openMonitoringLibrary(
  config: AppConfig = loadConfig(),
  logger: Logger = pino({ level: config.logLevel }),
): Promise<MonitoringLibrary> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const database: Database = await openDatabase(databaseUrl, logger);
  const container = createContainer(config, logger, database);
  let worker: CheckWorker | undefined;
  return {
    container,
    get: (useCase) => container.get(useCase as never),
    run: (work) => RequestContext.create(database.orm.em, work),
    startCheckWorker() {
      if (!runsChecks(config)) throw new Error('CHECK_LOCATIONS is none: this process runs no checks');
      worker ??= startCheckWorker(container.get(CheckDispatcher), logger, checkWorkerOptions(container, database, databaseUrl, logger));
      return worker;
    },
    close: async () => {
      await worker?.stop();
      await container.get(ChromiumBrowser).close();
      await container.get(PreparedSql).close();
      await database.close();
      await embedded?.stop();
    },
  };
}
