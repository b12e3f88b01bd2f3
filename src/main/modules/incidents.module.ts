import type { MikroORM } from '@mikro-orm/postgresql';
import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import {
  COVERAGE_READER,
  MONITOR_LOOKUP,
  RESPONSE_SERIES_READER,
  RESULT_MAINTENANCE,
  RESULT_STORE,
  UPTIME_EXCLUSIONS,
} from '../../application/results/ports';
import { GetResponseTimes } from '../../application/results/get-response-times';
import { SqlResponseSeries } from '../../infrastructure/results/sql-response-series';
import {
  ALERT_STATE_REPOSITORY,
  INCIDENT_EVENTS,
  INCIDENT_REPOSITORY,
  INCIDENT_ROUTING,
  LIVE_LOCATIONS,
  MAINTENANCE_WINDOWS,
  MONITOR_LIVENESS_STORE,
  ORGANIZATION_EVENTS,
} from '../../application/incidents/ports';
import { NoticeLocationSilence } from '../../application/incidents/notice-location-silence';
import { SqlMonitorLiveness } from '../../infrastructure/incidents/sql-monitor-liveness';
import { AuditOrganizationEvents } from '../../infrastructure/audit/audit-organization-events';
import { locationSilenceJob } from '../../interfaces/jobs/location-silence.job';
import { CachedLiveLocations, LIVE_LOCATIONS_TTL_MS } from '../../application/incidents/cached-live-locations';
import { SqlServedLocations } from '../../infrastructure/scheduling/sql-served-locations';
import { GetCheckHistory } from '../../application/results/get-check-history';
import { GetUptimeStats } from '../../application/results/get-uptime-stats';
import { MaintainResultStorage } from '../../application/results/maintain-result-storage';
import { SCREENSHOT_STORE } from '../../application/checks/ports';
import { AlertActions } from '../../application/incidents/alert-actions';
import { RecordCheckResult } from '../../application/incidents/record-check-result';
import { SteadyMemo } from '../../application/incidents/steady-memo';
import { ListIncidents } from '../../application/incidents/list-incidents';
import { GetIncident } from '../../application/incidents/get-incident';
import { SqlAffectedDependents } from '../../infrastructure/incidents/sql-affected-dependents';
import { CreateManualIncident } from '../../application/incidents/create-manual-incident';
import { DeleteIncident } from '../../application/incidents/delete-incident';
import { AcknowledgeIncident } from '../../application/incidents/acknowledge-incident';
import { ApplyRoutedIncidentChange } from '../../application/incidents/apply-routed-incident-change';
import { ResolveIncident } from '../../application/incidents/resolve-incident';
import { PostIncidentUpdate } from '../../application/incidents/post-incident-update';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import { ContextSql } from '../../infrastructure/persistence/context-sql';
import { LocationCodes } from '../../infrastructure/results/location-codes';
import { SqlResultStore } from '../../infrastructure/results/sql-result-store';
import { SqlCoverageReader } from '../../infrastructure/results/sql-coverage-reader';
import { SqlResultMaintenance } from '../../infrastructure/results/sql-result-maintenance';
import { SqlMonitorLookup } from '../../infrastructure/results/sql-monitor-lookup';
import { SqlIncidentRepository } from '../../infrastructure/incidents/sql-incident.repository';
import { SqlAlertStateRepository } from '../../infrastructure/incidents/sql-alert-state.repository';
import { OutboxEventPublisher } from '../../infrastructure/outbox/outbox-publisher';
import { incidentEventCodec } from '../../domain/incidents/events';
import type { AppConfig } from '../config';
import { CONFIG, CONTEXT_SQL, ORM, SQL } from '../tokens';
import { bindings } from './bindings';
import { incidentsRouter } from '../../interfaces/http/incidents/incidents.router';
import { resultsRouterFor } from '../../interfaces/http/incidents/website-results.router';
import { PER_KIND_TYPES } from '../../domain/monitoring/monitor-kind';
import { resultStorageJob } from '../../interfaces/jobs/result-storage.job';
import type { ContextModule } from './context-module';

/** Check results (storage, history, uptime), alert rules and incidents. */
export const incidentsModule = bindings(({ bind }) => {
  const config = (c: { get<T>(id: symbol): T }) => c.get<AppConfig>(CONFIG);

  bind(CONTEXT_SQL)
    .toDynamicValue((c) => new ContextSql(c.get<MikroORM>(ORM)))
    .inSingletonScope();
  bind(LocationCodes)
    .toDynamicValue((c) => new LocationCodes(c.get(CONTEXT_SQL), c.get<SqlRunner>(SQL)))
    .inSingletonScope();
  bind(RESULT_STORE)
    .toDynamicValue((c) => new SqlResultStore(c.get(CONTEXT_SQL), c.get(SQL), c.get(LocationCodes)))
    .inSingletonScope();
  bind(COVERAGE_READER)
    .toDynamicValue((c) => new SqlCoverageReader(c.get(SQL)))
    .inSingletonScope();
  bind(RESULT_MAINTENANCE)
    .toDynamicValue((c) => {
      const store = c.get<SqlResultStore>(RESULT_STORE);
      return new SqlResultMaintenance(c.get(SQL), () => store.forgetPartitions());
    })
    .inSingletonScope();
  bind(MONITOR_LOOKUP)
    .toDynamicValue((c) => new SqlMonitorLookup(c.get(CONTEXT_SQL)))
    .inSingletonScope();
  bind(INCIDENT_REPOSITORY)
    .toDynamicValue((c) => new SqlIncidentRepository(c.get(CONTEXT_SQL)))
    .inSingletonScope();
  bind(ALERT_STATE_REPOSITORY)
    .toDynamicValue((c) => new SqlAlertStateRepository(c.get(CONTEXT_SQL), c.get(SQL)))
    .inSingletonScope();
  bind(INCIDENT_EVENTS)
    .toDynamicValue((c) => new OutboxEventPublisher(c.get(CONTEXT_SQL), incidentEventCodec))
    .inSingletonScope();

  bind(GetCheckHistory)
    .toDynamicValue((c) => new GetCheckHistory(c.get(MONITOR_LOOKUP), c.get(RESULT_STORE), c.get(CLOCK)))
    .inSingletonScope();
  bind(GetUptimeStats)
    .toDynamicValue((c) => new GetUptimeStats(c.get(MONITOR_LOOKUP), c.get(COVERAGE_READER), c.get(CLOCK), c.get(UPTIME_EXCLUSIONS)))
    .inSingletonScope();
  bind(RESPONSE_SERIES_READER)
    .toDynamicValue((c) => new SqlResponseSeries(c.get(SQL)))
    .inSingletonScope();
  bind(GetResponseTimes)
    .toDynamicValue((c) => new GetResponseTimes(c.get(MONITOR_LOOKUP), c.get(RESPONSE_SERIES_READER), c.get(CLOCK)))
    .inSingletonScope();
  bind(MaintainResultStorage)
    .toDynamicValue(
      (c) =>
        new MaintainResultStorage(
          c.get(RESULT_MAINTENANCE),
          {
            resultsRetentionDays: config(c).results.retentionDays,
            rollupRetentionDays: config(c).results.rollupRetentionDays,
            rawHours: config(c).results.rawHours,
            dailyRollupAfterDays: config(c).results.dailyRollupAfterDays,
            partitionsAheadDays: 3,
            settleMinutes: 15,
          },
          c.get(CLOCK),
          c.get(SCREENSHOT_STORE),
        ),
    )
    .inSingletonScope();
  bind(AlertActions)
    .toDynamicValue(
      (c) =>
        new AlertActions(c.get(INCIDENT_REPOSITORY), c.get(INCIDENT_EVENTS), c.get(ID_GENERATOR), c.get(CLOCK), c.get(INCIDENT_ROUTING)),
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
  bind(MONITOR_LIVENESS_STORE)
    .toDynamicValue((c) => new SqlMonitorLiveness(c.get(SQL), c.get(CONTEXT_SQL), config(c).checkLocations))
    .inSingletonScope();
  bind(ORGANIZATION_EVENTS)
    .toDynamicValue((c) => new AuditOrganizationEvents(c.get(CONTEXT_SQL)))
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
    .toDynamicValue((c) => new ListIncidents(c.get(INCIDENT_REPOSITORY)))
    .inSingletonScope();
  bind(GetIncident)
    .toDynamicValue((c) => new GetIncident(c.get(INCIDENT_REPOSITORY), new SqlAffectedDependents(c.get(CONTEXT_SQL))))
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
    .toDynamicValue((c) => new DeleteIncident(c.get(INCIDENT_REPOSITORY)))
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
  routers: [incidentsRouter, resultsRouterFor(PER_KIND_TYPES)],
  jobs: [resultStorageJob, locationSilenceJob],
};
