import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { GetUptimeStats } from '../../application/results/get-uptime-stats';
import { DIRECT_DELIVERIES } from '../../application/notifications/ports';
import {
  REPORT_ARCHIVE,
  REPORT_BRANDING,
  REPORT_RENDERER,
  REPORT_REPOSITORY,
  REPORT_RUNS,
  REPORT_SCOPE_REFS,
  REPORT_OBJECTIVES,
  REPORT_SOURCES,
} from '../../application/reports/ports';
import { CreateReport } from '../../application/reports/create-report';
import { ListReports } from '../../application/reports/list-reports';
import { GetReport } from '../../application/reports/get-report';
import { UpdateReport } from '../../application/reports/update-report';
import { DeleteReport } from '../../application/reports/delete-report';
import { ReportRunner } from '../../application/reports/report-runner';
import { RunDueReports } from '../../application/reports/run-due-reports';
import { RunReportNow } from '../../application/reports/run-report-now';
import { ListReportRuns } from '../../application/reports/list-report-runs';
import { GetReportRun } from '../../application/reports/get-report-run';
import { GetReportPdf } from '../../application/reports/get-report-pdf';
import { SetReportLogo } from '../../application/reports/set-report-logo';
import { SqlReportRepository } from '../../infrastructure/reports/sql-report.repository';
import { SqlReportScopeRefs } from '../../infrastructure/reports/sql-report-scope-refs';
import { SqlReportSources } from '../../infrastructure/reports/sql-report-sources';
import { standingAloneAll } from '../../infrastructure/persistence/pool-guard';
import { SqlReportRuns } from '../../infrastructure/reports/sql-report-runs';
import { PdfkitReportRenderer } from '../../infrastructure/reports/pdfkit-report-renderer';
import { FileReportArchive } from '../../infrastructure/reports/file-report-archive';
import { SqlReportBranding } from '../../infrastructure/reports/sql-report-branding';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL } from '../tokens';
import { bindings } from './bindings';
import { reportsRouter } from '../../interfaces/http/reports/reports.router';
import { reportRunsRouter } from '../../interfaces/http/reports/report-runs.router';
import { reportsJob } from '../../interfaces/jobs/reports.job';
import type { ContextModule } from './context-module';

/** A slot is still made this long after its time (a worker down longer skips it; the next slot comes anyway). */
const REPORT_LOOKBACK_MS = 72 * 60 * 60_000;
/** Why a report run's model reads stand alone on the pool (see ReportRunner's binding). */
const REPORT_MODEL_APART = "a report run's model, read while its claimed run is held";
/** Customers' own monthly reports go out on the 1st at this UTC time. */
const CUSTOMER_REPORT_TIME = '06:00';

/** Organization reports: definitions, runs made on schedule or on demand, the PDF and its delivery. */
export const reportsModule = bindings(({ single }) => {
  single(REPORT_REPOSITORY, (c) => new SqlReportRepository(c.get(POOL_SQL)));
  single(REPORT_SCOPE_REFS, (c) => new SqlReportScopeRefs(c.get(POOL_SQL)));
  single(REPORT_SOURCES, (c) => new SqlReportSources(c.get(POOL_SQL)));
  single(REPORT_RUNS, (c) => new SqlReportRuns(c.get(POOL_SQL)));
  single(REPORT_RENDERER, () => new PdfkitReportRenderer());
  single(REPORT_BRANDING, (c) => new SqlReportBranding(c.get(POOL_SQL)));
  single(REPORT_ARCHIVE, (c) => new FileReportArchive(c.get<AppConfig>(CONFIG).dataDir));

  single(
    CreateReport,
    (c) =>
      new CreateReport(c.get(REPORT_REPOSITORY), c.get(REPORT_SCOPE_REFS), c.get(ID_GENERATOR), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(ListReports, (c) => new ListReports(c.get(REPORT_REPOSITORY), c.get(REPORT_SCOPE_REFS), c.get(CLOCK)));
  single(GetReport, (c) => new GetReport(c.get(REPORT_REPOSITORY), c.get(REPORT_SCOPE_REFS), c.get(CLOCK)));
  single(
    UpdateReport,
    (c) => new UpdateReport(c.get(REPORT_REPOSITORY), c.get(REPORT_SCOPE_REFS), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(DeleteReport, (c) => new DeleteReport(c.get(REPORT_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(
    ReportRunner,
    (c) =>
      new ReportRunner(
        // A run reads its model (and renders its PDF) inside the transaction that holds its claimed run
        // until it finishes, one run at a time per worker: those reads stand alone on the pool through
        // the pool guard's named escape. Reading the model before that transaction would end this.
        standingAloneAll(REPORT_MODEL_APART, c.get(REPORT_SOURCES)),
        c.get(REPORT_RUNS),
        c.get(REPORT_RENDERER),
        c.get(REPORT_ARCHIVE),
        c.get(DIRECT_DELIVERIES),
        c.get(GetUptimeStats),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        standingAloneAll(REPORT_MODEL_APART, c.get(REPORT_OBJECTIVES)),
      ),
  );
  single(
    RunDueReports,
    (c) =>
      new RunDueReports(c.get(REPORT_REPOSITORY), c.get(REPORT_SOURCES), c.get(REPORT_RUNS), c.get(ReportRunner), c.get(CLOCK), {
        lookbackMs: REPORT_LOOKBACK_MS,
        customerReportTime: CUSTOMER_REPORT_TIME,
      }),
  );
  single(RunReportNow, (c) => new RunReportNow(c.get(REPORT_REPOSITORY), c.get(ReportRunner), c.get(CLOCK)));
  single(ListReportRuns, (c) => new ListReportRuns(c.get(REPORT_RUNS), c.get(REPORT_REPOSITORY)));
  single(GetReportRun, (c) => new GetReportRun(c.get(REPORT_RUNS)));
  single(SetReportLogo, (c) => new SetReportLogo(c.get(REPORT_BRANDING), c.get(CLOCK), c.get(TRANSACTION_RUNNER)));
  single(GetReportPdf, (c) => new GetReportPdf(c.get(REPORT_RUNS), c.get(REPORT_ARCHIVE)));
});

export const reportsContext: ContextModule = {
  name: 'reports',
  bindings: reportsModule,
  routers: [reportsRouter, reportRunsRouter],
  jobs: [reportsJob],
};
