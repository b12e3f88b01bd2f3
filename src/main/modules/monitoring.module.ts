import { LOCATION_CATALOGUE } from '../../application/locations/ports';
import { ChargingTierUpgrades } from '../../application/billing/charging-tier-upgrades';
import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TARGET_POLICY } from '../../application/shared/target-policy';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import { SECRET_TOKENS } from '../../application/identity/ports';
import {
  AUTHORIZING_USERS,
  CHANGE_REQUEST_REPOSITORY,
  CREDENTIAL_CIPHER,
  MONITOR_CUSTOMER_TERMS,
  MONITOR_READER,
  MONITOR_REPOSITORY,
  MONITOR_DEPENDENCY_GRAPH,
  MONITOR_TARGET_POLICY,
  SERVED_LOCATIONS,
  TAG_REPOSITORY,
} from '../../application/monitoring/ports';
import { MonitorWriter } from '../../application/monitoring/monitor-writer';
import { CreateMonitor } from '../../application/monitoring/create-monitor';
import { GetMonitor } from '../../application/monitoring/get-monitor';
import { ListMonitors } from '../../application/monitoring/list-monitors';
import { ListWebsites } from '../../application/monitoring/list-websites';
import { ShowWebsite } from '../../application/monitoring/show-website';
import { UpdateMonitor } from '../../application/monitoring/update-monitor';
import { UpdateWebsiteCheckConfig } from '../../application/monitoring/update-website-check-config';
import { DeleteMonitor } from '../../application/monitoring/delete-monitor';
import { RecordHeartbeat } from '../../application/monitoring/record-heartbeat';
import { FileChangeRequest } from '../../application/monitoring/file-change-request';
import { ListChangeRequests } from '../../application/monitoring/list-change-requests';
import { SettleChangeRequest } from '../../application/monitoring/settle-change-request';
import { CreateTag } from '../../application/monitoring/create-tag';
import { ListTags } from '../../application/monitoring/list-tags';
import { UpdateTag } from '../../application/monitoring/update-tag';
import { DeleteTag } from '../../application/monitoring/delete-tag';
import { AttachTag } from '../../application/monitoring/attach-tag';
import { SqlMonitorDependencies } from '../../infrastructure/monitoring/sql-monitor-dependencies';
import { DetachTag } from '../../application/monitoring/detach-tag';
import { NodeDnsResolver } from '../../infrastructure/network/node-dns-resolver';
import { ResolvingTargetPolicy } from '../../infrastructure/network/resolving-target-policy';
import { AesGcmCredentialCipher } from '../../infrastructure/security/aes-gcm-credential-cipher';
import { SqlMonitorRepository } from '../../infrastructure/monitoring/sql-monitor.repository';
import { SqlTagRepository } from '../../infrastructure/monitoring/sql-tag.repository';
import { SqlChangeRequestRepository } from '../../infrastructure/monitoring/sql-change-request.repository';
import { SqlMonitorReader } from '../../infrastructure/monitoring/sql-monitor.reader';
import { SqlAuthorizingUsers } from '../../infrastructure/monitoring/sql-authorizing-users';
import { SqlServedLocations } from '../../infrastructure/scheduling/sql-served-locations';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, SQL } from '../tokens';
import { bindings, type Ctx } from './bindings';
import { websitesRouter } from '../../interfaces/http/monitoring/websites.router';
import { monitorsRouter } from '../../interfaces/http/monitoring/monitors.router';
import { tagsRouter } from '../../interfaces/http/monitoring/tags.router';
import { changeRequestsRouter } from '../../interfaces/http/monitoring/change-requests.router';
import { heartbeatsRouter } from '../../interfaces/http/monitoring/heartbeats.router';
import type { ContextModule } from './context-module';
import { renderStaleWebsiteDocuments } from '../../infrastructure/monitoring/website-document';

/**
 * Monitoring: monitors of every kind, tags, change requests, and the target policy every
 * connection a check makes goes through. Customer terms come from the tenancy context.
 */
export const monitoringModule = bindings(({ bind, single }) => {
  const config = (c: Ctx) => c.get<AppConfig>(CONFIG);
  const transactions = (c: Ctx) => c.get<TransactionRunner>(TRANSACTION_RUNNER);

  single(
    MONITOR_TARGET_POLICY,
    (c) => new ResolvingTargetPolicy(new NodeDnsResolver(config(c).dnsServers), config(c).checkPrivateAllowlist),
  );
  bind(TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
  single(CREDENTIAL_CIPHER, (c) => AesGcmCredentialCipher.fromConfig(config(c).credentialsKey, config(c).dataDir));
  // Automatic quota upgrades on monitor create go through billing, which records their charge.
  bind(MONITOR_CUSTOMER_TERMS).toService(ChargingTierUpgrades);
  single(MONITOR_REPOSITORY, (c) => new SqlMonitorRepository(c.get(POOL_SQL), transactions(c)));
  single(MONITOR_READER, (c) => new SqlMonitorReader(c.get(SQL), config(c).publicBaseUrl));
  single(TAG_REPOSITORY, (c) => new SqlTagRepository(c.get(POOL_SQL), transactions(c)));
  single(CHANGE_REQUEST_REPOSITORY, (c) => new SqlChangeRequestRepository(c.get(POOL_SQL)));
  single(AUTHORIZING_USERS, (c) => new SqlAuthorizingUsers(c.get(SQL)));
  single(SERVED_LOCATIONS, (c) => new SqlServedLocations(c.get(SQL)));
  single(MONITOR_DEPENDENCY_GRAPH, (c) => new SqlMonitorDependencies(c.get(POOL_SQL)));

  single(
    MonitorWriter,
    (c) =>
      new MonitorWriter(
        c.get(MONITOR_REPOSITORY),
        c.get(MONITOR_CUSTOMER_TERMS),
        c.get(MONITOR_TARGET_POLICY),
        c.get(CREDENTIAL_CIPHER),
        c.get(SECRET_TOKENS),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        { catalogue: config(c).checkLocations, served: c.get(SERVED_LOCATIONS), known: c.get(LOCATION_CATALOGUE) },
        c.get(MONITOR_DEPENDENCY_GRAPH),
      ),
  );
  single(CreateMonitor, (c) => new CreateMonitor(c.get(MonitorWriter)));
  single(GetMonitor, (c) => new GetMonitor(c.get(MONITOR_REPOSITORY), c.get(MONITOR_READER)));
  single(ListMonitors, (c) => new ListMonitors(c.get(MONITOR_READER)));
  single(UpdateMonitor, (c) => new UpdateMonitor(c.get(MONITOR_REPOSITORY), c.get(MonitorWriter)));
  single(ListWebsites, (c) => new ListWebsites(c.get(MONITOR_READER)));
  single(ShowWebsite, (c) => new ShowWebsite(c.get(MONITOR_READER)));
  single(UpdateWebsiteCheckConfig, (c) => new UpdateWebsiteCheckConfig(c.get(MONITOR_REPOSITORY), c.get(MonitorWriter)));
  single(DeleteMonitor, (c) => new DeleteMonitor(c.get(MONITOR_REPOSITORY), c.get(MonitorWriter), c.get(TRANSACTION_RUNNER)));
  single(RecordHeartbeat, (c) => new RecordHeartbeat(c.get(MONITOR_REPOSITORY), c.get(CLOCK), c.get(TRANSACTION_RUNNER)));
  single(
    FileChangeRequest,
    (c) =>
      new FileChangeRequest(
        c.get(MONITOR_REPOSITORY),
        c.get(CHANGE_REQUEST_REPOSITORY),
        c.get(MonitorWriter),
        c.get(AUTHORIZING_USERS),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  single(ListChangeRequests, (c) => new ListChangeRequests(c.get(CHANGE_REQUEST_REPOSITORY)));
  single(
    SettleChangeRequest,
    (c) =>
      new SettleChangeRequest(
        c.get(CHANGE_REQUEST_REPOSITORY),
        c.get(MONITOR_REPOSITORY),
        c.get(MonitorWriter),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
      ),
  );
  single(
    CreateTag,
    (c) =>
      new CreateTag(
        c.get(TAG_REPOSITORY),
        c.get(MONITOR_CUSTOMER_TERMS),
        c.get(AUTHORIZING_USERS),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(ListTags, (c) => new ListTags(c.get(TAG_REPOSITORY)));
  single(UpdateTag, (c) => new UpdateTag(c.get(TAG_REPOSITORY), c.get(CLOCK), c.get(TRANSACTION_RUNNER)));
  single(DeleteTag, (c) => new DeleteTag(c.get(TAG_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(AttachTag, (c) => new AttachTag(c.get(TAG_REPOSITORY), c.get(MONITOR_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(DetachTag, (c) => new DetachTag(c.get(TAG_REPOSITORY), c.get(MONITOR_REPOSITORY), c.get(TRANSACTION_RUNNER)));
});

export const monitoringContext: ContextModule = {
  name: 'monitoring',
  bindings: monitoringModule,
  routers: [websitesRouter, monitorsRouter, tagsRouter, changeRequestsRouter, heartbeatsRouter],
  workers: [
    {
      // Website records written by an older version are rendered again before the host serves them.
      name: 'stale website records',
      start: async ({ get, logger }) => {
        const rendered = await renderStaleWebsiteDocuments(get(TRANSACTION_RUNNER));
        if (rendered > 0) logger.info({ rendered }, 'rendered stale website records');
        return undefined;
      },
    },
  ],
};
