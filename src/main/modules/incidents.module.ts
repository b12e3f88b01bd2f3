import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { MONITOR_LOOKUP, RESULT_STORE } from '../../application/results/ports';
import {
  ALERT_STATE_REPOSITORY,
  INCIDENT_EVENTS,
  INCIDENT_REPOSITORY,
  INCIDENT_ROUTING,
  LIVE_LOCATIONS,
  SILENCE_DEADLINES,
  OWN_WORKER_LIVENESS,
  MAINTENANCE_WINDOWS,
  MONITOR_LIVENESS_STORE,
  ORGANIZATION_EVENTS,
} from '../../application/incidents/ports';
import { NoticeLocationSilence } from '../../application/incidents/notice-location-silence';
import { KnownSilenceDeadlines } from '../../application/incidents/known-silence-deadlines';
import { SqlMonitorLiveness } from '../../infrastructure/incidents/sql-monitor-liveness';
import { AuditOrganizationEvents } from '../../infrastructure/audit/audit-organization-events';
import { locationSilenceJob } from '../../interfaces/jobs/location-silence.job';
import { CachedLiveLocations, LIVE_LOCATIONS_TTL_MS } from '../../application/incidents/cached-live-locations';
import { SqlServedLocations } from '../../infrastructure/scheduling/sql-served-locations';
import { AlertActions } from '../../application/incidents/alert-actions';
import { RecordCheckResult } from '../../application/incidents/record-check-result';
import { SteadyMemo } from '../../application/incidents/steady-memo';
import { ListIncidents } from '../../application/incidents/list-incidents';
import { GetIncident } from '../../application/incidents/get-incident';
import { SqlAffectedDependents } from '../../infrastructure/incidents/sql-affected-dependents';
import { SqlMonitorLabels } from '../../infrastructure/incidents/sql-monitor-labels';
import { CreateManualIncident } from '../../application/incidents/create-manual-incident';
import { DeleteIncident } from '../../application/incidents/delete-incident';
import { AcknowledgeIncident } from '../../application/incidents/acknowledge-incident';
import { ApplyRoutedIncidentChange } from '../../application/incidents/apply-routed-incident-change';
import { ResolveIncident } from '../../application/incidents/resolve-incident';
import { PostIncidentUpdate } from '../../application/incidents/post-incident-update';
import { SqlIncidentRepository } from '../../infrastructure/incidents/sql-incident.repository';
import { SqlAlertStateRepository } from '../../infrastructure/incidents/sql-alert-state.repository';
import { OutboxEventPublisher } from '../../infrastructure/outbox/outbox-publisher';
import { incidentEventCodec } from '../../domain/incidents/events';
import { incidentLiveNotice } from '../../infrastructure/incidents/incident-live-events';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, SQL } from '../tokens';
import { bindings } from './bindings';
import { incidentsRouter } from '../../interfaces/http/incidents/incidents.router';
import type { ContextModule } from './context-module';

/** Alert rules, the recording of check results (through the results context's store) and incidents. */
export const incidentsModule = bindings(({ bind }) => {
  const config = (c: { get<T>(id: symbol): T }) => c.get<AppConfig>(CONFIG);

  bind(INCIDENT_REPOSITORY)
    .toDynamicValue((c) => new SqlIncidentRepository(c.get(POOL_SQL)))
    .inSingletonScope();
  bind(ALERT_STATE_REPOSITORY)
    .toDynamicValue((c) => new SqlAlertStateRepository(c.get(POOL_SQL), c.get(SQL)))
    .inSingletonScope();
  bind(INCIDENT_EVENTS)
    .toDynamicValue((c) => new OutboxEventPublisher(c.get(POOL_SQL), incidentEventCodec, incidentLiveNotice))
    .inSingletonScope();

  bind(AlertActions)
    .toDynamicValue(
      (c) => new AlertActions(c.get(INCIDENT_REPOSITORY), c.get(INCIDENT_EVENTS), c.get(ID_GENERATOR), c.get(INCIDENT_ROUTING)),
    )
    .inSingletonScope();
  bind(RecordCheckResult)
    .toDynamicValue(
      (c) =>
        new RecordCheckResult(
          c.get(MONITOR_LOOKUP),
          c.get(RESULT_STORE),
          c.get(ALERT_STATE_REPOSITORY),
          c.get(INCIDENT_REPOSITORY),
          c.get(MAINTENANCE_WINDOWS),
          c.get(AlertActions),
          c.get(TRANSACTION_RUNNER),
          c.get(CLOCK),
          c.get(LIVE_LOCATIONS),
          { detailSampleMinutes: config(c).results.detailSampleMinutes },
          c.get(SteadyMemo),
        ),
    )
    .inSingletonScope();
  bind(SteadyMemo).toConstantValue(new SteadyMemo());
  // Read at most once a second by the recording path (a location reporting counts as live at once).
  bind(LIVE_LOCATIONS)
    .toDynamicValue((c) => new CachedLiveLocations(new SqlServedLocations(c.get(SQL)), LIVE_LOCATIONS_TTL_MS))
    .inSingletonScope();
  // Read only when this process's own worker cannot answer (a single-process deployment: almost never).
  bind(SILENCE_DEADLINES)
    .toDynamicValue((c) => new KnownSilenceDeadlines(new SqlServedLocations(c.get(SQL)), c.get(OWN_WORKER_LIVENESS)))
    .inSingletonScope();
  bind(MONITOR_LIVENESS_STORE)
    .toDynamicValue((c) => new SqlMonitorLiveness(c.get(SQL), c.get(POOL_SQL), config(c).checkLocations))
    .inSingletonScope();
  bind(ORGANIZATION_EVENTS)
    .toDynamicValue((c) => new AuditOrganizationEvents(c.get(POOL_SQL)))
    .inSingletonScope();
  bind(NoticeLocationSilence)
    .toDynamicValue(
      (c) =>
        new NoticeLocationSilence(
          new SqlServedLocations(c.get(SQL)),
          c.get(MONITOR_LIVENESS_STORE),
          c.get(ORGANIZATION_EVENTS),
          c.get(TRANSACTION_RUNNER),
          c.get(CLOCK),
        ),
    )
    .inSingletonScope();
  bind(ListIncidents)
    .toDynamicValue((c) => new ListIncidents(c.get(INCIDENT_REPOSITORY), new SqlMonitorLabels(c.get(SQL))))
    .inSingletonScope();
  bind(GetIncident)
    .toDynamicValue(
      (c) => new GetIncident(c.get(INCIDENT_REPOSITORY), new SqlAffectedDependents(c.get(POOL_SQL)), new SqlMonitorLabels(c.get(SQL))),
    )
    .inSingletonScope();
  bind(CreateManualIncident)
    .toDynamicValue(
      (c) =>
        new CreateManualIncident(
          c.get(MONITOR_LOOKUP),
          c.get(INCIDENT_REPOSITORY),
          c.get(INCIDENT_EVENTS),
          c.get(TRANSACTION_RUNNER),
          c.get(ID_GENERATOR),
          c.get(CLOCK),
        ),
    )
    .inSingletonScope();
  bind(DeleteIncident)
    .toDynamicValue((c) => new DeleteIncident(c.get(INCIDENT_REPOSITORY), c.get(TRANSACTION_RUNNER)))
    .inSingletonScope();
  bind(AcknowledgeIncident)
    .toDynamicValue(
      (c) =>
        new AcknowledgeIncident(
          c.get(INCIDENT_REPOSITORY),
          c.get(INCIDENT_EVENTS),
          c.get(TRANSACTION_RUNNER),
          c.get(CLOCK),
          c.get(INCIDENT_ROUTING),
        ),
    )
    .inSingletonScope();
  bind(ApplyRoutedIncidentChange)
    .toDynamicValue((c) => new ApplyRoutedIncidentChange(c.get(INCIDENT_REPOSITORY), c.get(INCIDENT_EVENTS)))
    .inSingletonScope();
  bind(ResolveIncident)
    .toDynamicValue((c) => new ResolveIncident(c.get(INCIDENT_REPOSITORY), c.get(INCIDENT_EVENTS), c.get(TRANSACTION_RUNNER), c.get(CLOCK)))
    .inSingletonScope();
  bind(PostIncidentUpdate)
    .toDynamicValue((c) => new PostIncidentUpdate(c.get(INCIDENT_REPOSITORY), c.get(TRANSACTION_RUNNER), c.get(CLOCK)))
    .inSingletonScope();
});

export const incidentsContext: ContextModule = {
  name: 'incidents',
  bindings: incidentsModule,
  routers: [incidentsRouter],
  jobs: [locationSilenceJob],
};
