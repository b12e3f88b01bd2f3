import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import {
  ESCALATION_POLICY_DIRECTORY,
  IM_CUSTOMER_DIRECTORY,
  IM_INCIDENT_REPOSITORY,
  IM_EVENT_BATCH_STORE,
  IM_EVENT_INTAKE_LOG,
  IM_TEAM_DIRECTORY,
  type EscalationPolicyDirectory,
  type ImCustomerDirectory,
  type ImTeamDirectory,
} from '../../application/incident-management/ports';
import { CreateImIncident } from '../../application/incident-management/create-im-incident';
import { ListImIncidents } from '../../application/incident-management/list-im-incidents';
import { GetImIncident } from '../../application/incident-management/get-im-incident';
import { ImIncidentActsOf } from '../../application/incident-management/im-incident-acts';
import { AcknowledgeImIncident } from '../../application/incident-management/acknowledge-im-incident';
import { ChangeImIncidentStatus } from '../../application/incident-management/change-im-incident-status';
import { ResolveImIncident } from '../../application/incident-management/resolve-im-incident';
import { SnoozeImIncident } from '../../application/incident-management/snooze-im-incident';
import { MergeImIncidents } from '../../application/incident-management/merge-im-incidents';
import { BulkImIncidentAction } from '../../application/incident-management/bulk-im-incident-action';
import { SqlImIncidentRepository } from '../../infrastructure/incident-management/sql-im-incident.repository';
import {
  SqlEscalationPolicyDirectory,
  SqlImCustomerDirectory,
  SqlImTeamDirectory,
} from '../../infrastructure/incident-management/sql-im-directories';
import { AdmitImEvent } from '../../application/incident-management/admit-im-event';
import { RATE_LIMITER } from '../../application/shared/rate-limiter';
import { ALERT_SOURCE_REPOSITORY, INGEST_BYTE_BUDGET } from '../../application/incident-management/ports';
import { CreateAlertSource } from '../../application/incident-management/create-alert-source';
import {
  DeleteAlertSource,
  GetAlertSource,
  ListAlertSources,
  UpdateAlertSource,
} from '../../application/incident-management/manage-alert-sources';
import { IngestAlertPayload } from '../../application/incident-management/ingest-alert-payload';
import { SendTestAlert } from '../../application/incident-management/send-test-alert';
import { SECRET_TOKENS } from '../../application/identity/ports';
import { SqlAlertSourceRepository } from '../../infrastructure/incident-management/sql-alert-source.repository';
import { PostgresIngestByteBudget } from '../../infrastructure/incident-management/postgres-ingest-byte-budget';
import { POOL_SQL, SQL } from '../tokens';
import { SHARED_RATE_COUNTER } from '../../application/shared/rate-limiter';
import { PostgresSharedRateCounter } from '../../infrastructure/rate-limit/postgres-rate-limiter';
import { SqlImEventBatchStore } from '../../infrastructure/incident-management/sql-im-event-batch';
import { SqlImEventIntakeLog } from '../../infrastructure/incident-management/sql-im-event-intake';
import { AcceptImEvents } from '../../application/incident-management/accept-im-events';
import { DecideImEvents } from '../../application/incident-management/decide-im-events';
import { imEventDecider } from './im-event-decider.worker';
import { CommitImEvents } from '../../application/incident-management/commit-im-events';
import { AddImIncidentResponder } from '../../application/incident-management/add-im-incident-responder';
import { IM_OUTBOUND_DELIVERIES, IM_RESPONDER_DIRECTORY } from '../../application/incident-management/ports';
import { RetryImOutbound } from '../../application/incident-management/retry-im-outbound';
import { SqlImOutboundDeliveries } from '../../infrastructure/incident-management/sql-im-outbound-deliveries';
import { SqlImResponderDirectory } from '../../infrastructure/incident-management/sql-im-directories';
import { DIRECT_DELIVERIES } from '../../application/notifications/ports';

import { IM_ROUTING_SETTINGS } from '../../application/incident-management/ports';
import { INCIDENT_ROUTING } from '../../application/incidents/ports';
import { CONTACT_METHOD_REPOSITORY } from '../../application/on-call/ports';
import { RouteMonitorIncident } from '../../application/incident-management/route-monitor-incident';
import {
  GetCustomerImRouting,
  GetMonitorImRouting,
  SetCustomerImRouting,
  SetMonitorImRouting,
} from '../../application/incident-management/manage-im-routing';
import { SqlImRoutingSettings } from '../../infrastructure/incident-management/sql-im-routing-settings';
import { IM_MONITOR_ORIGINS, MONITOR_INCIDENT_SYNC, type MonitorIncidentSync } from '../../application/incident-management/ports';
import { SqlImMonitorOrigins } from '../../infrastructure/incident-management/sql-im-monitor-origins';
import { MonitorSyncedImIncidents } from '../../application/incident-management/monitor-incident-sync';
import { ApplyRoutedIncidentChange } from '../../application/incidents/apply-routed-incident-change';
import { bindings, type Ctx } from './bindings';
import { imIncidentsRouter } from '../../interfaces/http/incident-management/im-incidents.router';
import { imEventsRouter } from '../../interfaces/http/incident-management/im-events.router';
import { alertSourcesRouter } from '../../interfaces/http/incident-management/alert-sources.router';
import { imRoutingRouter } from '../../interfaces/http/incident-management/im-routing.router';
import { imIngest } from '../../interfaces/http/incident-management/im-ingest';
import { imAreaGate } from '../../interfaces/http/incident-management/im-access.gate';
import { withoutIngestToken } from '../../interfaces/http/incident-management/streamed-bodies';
import type { ContextModule } from './context-module';

/** Incident management: IM incidents, events ingest and alert sources (teams and escalation live in their own module). */
export const incidentManagementModule = bindings(({ single }) => {
  // Every IM use case writes through the synced repository: acknowledging or resolving an incident
  // routed from the check engine does the same to the automatic incident (one act wherever it happens).
  // The engine's own routing (below) writes the plain one, so nothing echoes back.
  const plainIncidents = (c: Ctx) => new SqlImIncidentRepository(c.get(POOL_SQL));
  single(MONITOR_INCIDENT_SYNC, (c): MonitorIncidentSync => {
    const apply = c.get(ApplyRoutedIncidentChange);
    return { acknowledged: (o, u, at, tx) => apply.acknowledged(o, u, at, tx), resolved: (o, u, at, tx) => apply.resolved(o, u, at, tx) };
  });
  single(IM_MONITOR_ORIGINS, (c) => new SqlImMonitorOrigins(c.get(POOL_SQL)));
  single(
    IM_INCIDENT_REPOSITORY,
    (c) => new MonitorSyncedImIncidents(plainIncidents(c), c.get(IM_MONITOR_ORIGINS), c.get(MONITOR_INCIDENT_SYNC)),
  );
  single(IM_TEAM_DIRECTORY, (c) => new SqlImTeamDirectory(c.get(POOL_SQL)));
  single(ESCALATION_POLICY_DIRECTORY, (c) => new SqlEscalationPolicyDirectory(c.get(POOL_SQL)));
  single(IM_CUSTOMER_DIRECTORY, (c) => new SqlImCustomerDirectory(c.get(POOL_SQL)));

  single(
    CreateImIncident,
    (c) =>
      new CreateImIncident(
        c.get(IM_INCIDENT_REPOSITORY),
        c.get(IM_TEAM_DIRECTORY),
        c.get(ESCALATION_POLICY_DIRECTORY),
        c.get(IM_CUSTOMER_DIRECTORY),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  single(ListImIncidents, (c) => new ListImIncidents(c.get(IM_INCIDENT_REPOSITORY)));
  single(GetImIncident, (c) => new GetImIncident(c.get(IM_INCIDENT_REPOSITORY)));
  single(ImIncidentActsOf, (c) => new ImIncidentActsOf(c.get(IM_TEAM_DIRECTORY)));
  single(AcknowledgeImIncident, (c) => new AcknowledgeImIncident(c.get(IM_INCIDENT_REPOSITORY), c.get(TRANSACTION_RUNNER), c.get(CLOCK)));
  const membersOnly =
    <T>(make: new (...args: ConstructorParameters<typeof ChangeImIncidentStatus>) => T) =>
    (c: Ctx) =>
      new make(c.get(IM_INCIDENT_REPOSITORY), c.get(IM_TEAM_DIRECTORY), c.get(TRANSACTION_RUNNER), c.get(CLOCK));
  single(ChangeImIncidentStatus, membersOnly(ChangeImIncidentStatus));
  single(ResolveImIncident, membersOnly(ResolveImIncident));
  single(SnoozeImIncident, membersOnly(SnoozeImIncident));
  single(MergeImIncidents, membersOnly(MergeImIncidents));
  single(IM_RESPONDER_DIRECTORY, (c) => new SqlImResponderDirectory(c.get(POOL_SQL)));
  single(
    AddImIncidentResponder,
    (c) =>
      new AddImIncidentResponder(
        c.get(IM_INCIDENT_REPOSITORY),
        c.get(IM_TEAM_DIRECTORY),
        c.get(IM_RESPONDER_DIRECTORY),
        c.get(DIRECT_DELIVERIES),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
        c.get(CONTACT_METHOD_REPOSITORY),
      ),
  );
  single(BulkImIncidentAction, membersOnly(BulkImIncidentAction));

  single(IM_OUTBOUND_DELIVERIES, (c) => new SqlImOutboundDeliveries(c.get(POOL_SQL)));
  single(
    RetryImOutbound,
    (c) => new RetryImOutbound(c.get(IM_OUTBOUND_DELIVERIES), c.get(RATE_LIMITER), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(AdmitImEvent, (c) => new AdmitImEvent(c.get(SHARED_RATE_COUNTER), c.get(CLOCK)));
  single(SHARED_RATE_COUNTER, (c) => new PostgresSharedRateCounter(c.get(SQL)));
  single(IM_EVENT_BATCH_STORE, (c) => {
    // A batch is committed from the committer's timer: its locked attempt is a transaction of its own.
    return new SqlImEventBatchStore(c.get(SQL), c.get(TRANSACTION_RUNNER));
  });
  single(CommitImEvents, (c) => new CommitImEvents(c.get(IM_EVENT_BATCH_STORE), c.get(ID_GENERATOR), c.get(CLOCK)));
  single(IM_EVENT_INTAKE_LOG, () => new SqlImEventIntakeLog());
  // The intake's batches and the decider's rounds: each transaction is one of its own.
  const ownTransactions = (c: Ctx) => c.get(TRANSACTION_RUNNER);
  single(AcceptImEvents, (c) => new AcceptImEvents(c.get(IM_EVENT_INTAKE_LOG), ownTransactions(c), c.get(ID_GENERATOR)));
  single(
    DecideImEvents,
    (c) =>
      new DecideImEvents(c.get(IM_EVENT_INTAKE_LOG), c.get(IM_EVENT_BATCH_STORE), ownTransactions(c), c.get(ID_GENERATOR), c.get(CLOCK)),
  );
  single(ALERT_SOURCE_REPOSITORY, (c) => new SqlAlertSourceRepository(c.get(POOL_SQL), c.get(SQL)));
  single(INGEST_BYTE_BUDGET, (c) => new PostgresIngestByteBudget(c.get(SQL)));
  const routingDirectories = (c: Ctx) =>
    [
      c.get<ImTeamDirectory>(IM_TEAM_DIRECTORY),
      c.get<EscalationPolicyDirectory>(ESCALATION_POLICY_DIRECTORY),
      c.get<ImCustomerDirectory>(IM_CUSTOMER_DIRECTORY),
    ] as const;
  single(
    CreateAlertSource,
    (c) =>
      new CreateAlertSource(
        c.get(ALERT_SOURCE_REPOSITORY),
        ...routingDirectories(c),
        c.get(SECRET_TOKENS),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(ListAlertSources, (c) => new ListAlertSources(c.get(ALERT_SOURCE_REPOSITORY)));
  single(GetAlertSource, (c) => new GetAlertSource(c.get(ALERT_SOURCE_REPOSITORY)));
  single(
    UpdateAlertSource,
    (c) => new UpdateAlertSource(c.get(ALERT_SOURCE_REPOSITORY), ...routingDirectories(c), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(DeleteAlertSource, (c) => new DeleteAlertSource(c.get(ALERT_SOURCE_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(
    IngestAlertPayload,
    (c) =>
      new IngestAlertPayload(
        c.get(ALERT_SOURCE_REPOSITORY),
        c.get(INGEST_BYTE_BUDGET),
        c.get(RATE_LIMITER),
        c.get(SECRET_TOKENS),
        c.get(CommitImEvents),
        c.get(CLOCK),
      ),
  );
  single(SendTestAlert, (c) => new SendTestAlert(c.get(ALERT_SOURCE_REPOSITORY), c.get(IngestAlertPayload), c.get(CLOCK)));

  // Check-engine incidents routed into IM (the alert engine calls INCIDENT_ROUTING inside its transaction).
  single(IM_ROUTING_SETTINGS, (c) => new SqlImRoutingSettings(c.get(POOL_SQL)));
  single(
    RouteMonitorIncident,
    (c) =>
      new RouteMonitorIncident(c.get(IM_ROUTING_SETTINGS), plainIncidents(c), c.get(IM_MONITOR_ORIGINS), c.get(ID_GENERATOR), c.get(CLOCK)),
  );
  single(INCIDENT_ROUTING, (c) => c.get(RouteMonitorIncident));
  const routingDeps = (c: Ctx) => ({
    teams: c.get<ImTeamDirectory>(IM_TEAM_DIRECTORY),
    policies: c.get<EscalationPolicyDirectory>(ESCALATION_POLICY_DIRECTORY),
    customers: c.get<ImCustomerDirectory>(IM_CUSTOMER_DIRECTORY),
  });
  single(GetCustomerImRouting, (c) => new GetCustomerImRouting(c.get(IM_ROUTING_SETTINGS), c.get(IM_CUSTOMER_DIRECTORY)));
  single(
    SetCustomerImRouting,
    (c) => new SetCustomerImRouting(c.get(IM_ROUTING_SETTINGS), routingDeps(c), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(GetMonitorImRouting, (c) => new GetMonitorImRouting(c.get(IM_ROUTING_SETTINGS)));
  single(
    SetMonitorImRouting,
    (c) => new SetMonitorImRouting(c.get(IM_ROUTING_SETTINGS), routingDeps(c), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
});

export const incidentManagementContext: ContextModule = {
  name: 'incident-management',
  bindings: incidentManagementModule,
  routers: [imIncidentsRouter, imEventsRouter, alertSourcesRouter, imRoutingRouter],
  streamedIntakes: [imIngest],
  areaGates: [imAreaGate],
  workers: [imEventDecider],
  redactUrl: withoutIngestToken,
  // After the HTTP server stopped (no more admissions) and before the database closes: the event
  // rate's hits admitted here and not yet written reach the shared counter.
  closers: [
    {
      name: 'event rate',
      close: (get, logger) =>
        get(AdmitImEvent)
          .flushPending()
          .catch((error: unknown) => logger.warn({ err: error }, 'event rate hits not written to the shared counter at stop')),
    },
  ],
};
