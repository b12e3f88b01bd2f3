import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { UPTIME_EXCLUSIONS } from '../../application/results/ports';
import {
  OBJECTIVE_REPOSITORY,
  OBJECTIVE_SUBJECTS,
  SERVICE_LEVEL_COVERAGE,
  SERVICE_LEVEL_EVENTS,
} from '../../application/service-levels/ports';
import { ObjectiveMeter } from '../../application/service-levels/objective-meter';
import { CreateObjective } from '../../application/service-levels/create-objective';
import { ListObjectives } from '../../application/service-levels/list-objectives';
import { GetObjective } from '../../application/service-levels/get-objective';
import { UpdateObjective } from '../../application/service-levels/update-objective';
import { DeleteObjective } from '../../application/service-levels/delete-objective';
import { GetObjectiveStatus } from '../../application/service-levels/get-objective-status';
import { EvaluateBurnAlerts } from '../../application/service-levels/evaluate-burn-alerts';
import { ReportServiceLevels } from '../../application/service-levels/report-service-levels';
import { REPORT_OBJECTIVES } from '../../application/reports/ports';
import { PAGE_OBJECTIVES } from '../../application/status-pages/ports';
import { PageServiceLevels } from '../../application/service-levels/page-service-levels';
import { SqlObjectiveRepository } from '../../infrastructure/service-levels/sql-objective.repository';
import { SqlObjectiveSubjects } from '../../infrastructure/service-levels/sql-objective-subjects';
import { SqlServiceLevelCoverage } from '../../infrastructure/service-levels/sql-service-level-coverage';
import { OutboxEventPublisher } from '../../infrastructure/outbox/outbox-publisher';
import { serviceLevelEventCodec } from '../../domain/service-levels/events';
import { serviceLevelsRouter } from '../../interfaces/http/service-levels/service-levels.router';
import { serviceLevelBurnJob } from '../../interfaces/jobs/service-level-burn.job';
import { POOL_SQL, SQL } from '../tokens';
import { bindings } from './bindings';
import type { ContextModule } from './context-module';

/** Service levels: objectives, their attainment from the stored results, and the burn-rate alerts. */
export const serviceLevelsModule = bindings(({ single }) => {
  single(OBJECTIVE_REPOSITORY, (c) => new SqlObjectiveRepository(c.get(POOL_SQL)));
  single(OBJECTIVE_SUBJECTS, (c) => new SqlObjectiveSubjects(c.get(POOL_SQL)));
  single(SERVICE_LEVEL_COVERAGE, (c) => new SqlServiceLevelCoverage(c.get(SQL)));
  single(SERVICE_LEVEL_EVENTS, (c) => new OutboxEventPublisher(c.get(POOL_SQL), serviceLevelEventCodec));
  single(ObjectiveMeter, (c) => new ObjectiveMeter(c.get(OBJECTIVE_SUBJECTS), c.get(SERVICE_LEVEL_COVERAGE), c.get(UPTIME_EXCLUSIONS)));
  single(
    CreateObjective,
    (c) =>
      new CreateObjective(
        c.get(OBJECTIVE_REPOSITORY),
        c.get(OBJECTIVE_SUBJECTS),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  single(REPORT_OBJECTIVES, (c) => new ReportServiceLevels(c.get(OBJECTIVE_REPOSITORY), c.get(OBJECTIVE_SUBJECTS), c.get(ObjectiveMeter)));
  single(PAGE_OBJECTIVES, (c) => new PageServiceLevels(c.get(OBJECTIVE_REPOSITORY), c.get(OBJECTIVE_SUBJECTS), c.get(GetObjectiveStatus)));
  single(ListObjectives, (c) => new ListObjectives(c.get(OBJECTIVE_REPOSITORY)));
  single(GetObjective, (c) => new GetObjective(c.get(OBJECTIVE_REPOSITORY)));
  single(
    UpdateObjective,
    (c) => new UpdateObjective(c.get(OBJECTIVE_REPOSITORY), c.get(OBJECTIVE_SUBJECTS), c.get(TRANSACTION_RUNNER), c.get(CLOCK)),
  );
  single(DeleteObjective, (c) => new DeleteObjective(c.get(OBJECTIVE_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(GetObjectiveStatus, (c) => new GetObjectiveStatus(c.get(OBJECTIVE_REPOSITORY), c.get(ObjectiveMeter), c.get(CLOCK)));
  single(
    EvaluateBurnAlerts,
    (c) =>
      new EvaluateBurnAlerts(
        c.get(OBJECTIVE_REPOSITORY),
        c.get(ObjectiveMeter),
        c.get(SERVICE_LEVEL_EVENTS),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
      ),
  );
});

export const serviceLevelsContext: ContextModule = {
  name: 'service-levels',
  bindings: serviceLevelsModule,
  routers: [serviceLevelsRouter],
  jobs: [serviceLevelBurnJob],
};
