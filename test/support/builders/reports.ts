import { GetUptimeStats } from '../../../src/application/results/get-uptime-stats';
import { CreateReport } from '../../../src/application/reports/create-report';
import { UpdateReport } from '../../../src/application/reports/update-report';
import { ReportRunner } from '../../../src/application/reports/report-runner';
import { RunDueReports } from '../../../src/application/reports/run-due-reports';
import { RunReportNow } from '../../../src/application/reports/run-report-now';
import { GetReportPdf } from '../../../src/application/reports/get-report-pdf';
import type { ReportInput } from '../../../src/application/reports/report-input';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { anActor } from '../builders';
import { ManualClock } from '../manual-clock';
import { FakeDirectDeliveries } from '../fakes/notifications-fakes';
import { FakeCoverage, FakeMonitorLookup, aMonitorRef } from '../fakes/results-fakes';
import {
  FakeReportArchive,
  FakeReportRenderer,
  FakeReportRepository,
  FakeReportRuns,
  FakeReportScopeRefs,
  FakeReportSources,
} from '../fakes/reports-fakes';
import { immediateTransactions, sequentialIds } from '../fakes/shared-fakes';

/** How far back the due-report job makes missed slots (72 hours). */
export const REPORT_LOOKBACK_MS = 72 * 3_600_000;

export interface ReportsWorldOptions {
  /** The clock's start (Monday 2026-06-01T12:00:00Z). */
  readonly now?: Date | string;
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
}

/**
 * The reports context on its fakes, wired as the composition root wires it: one monitor ("Shop" of
 * customer "Acme") up 90 % of the time, the report store, scope references, runs, the renderer, the
 * archive and the mails, and the use cases over them. `input` is a weekly report for Monday 08:00
 * UTC; `aReport` creates one as a given (on a runner of its own, so a recorded `tx` holds only the
 * use cases' transactions).
 */
export function aReportsWorld(options: ReportsWorldOptions = {}) {
  const clock = new ManualClock(options.now ?? '2026-06-01T12:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const reports = new FakeReportRepository();
  const refs = new FakeReportScopeRefs();
  const sources = new FakeReportSources();
  sources.reportedMonitors = [{ ...aMonitorRef({ monitorId: 7, customerId: 2, name: 'Shop' }), customerName: 'Acme' }];
  const runs = new FakeReportRuns();
  const renderer = new FakeReportRenderer();
  const archive = new FakeReportArchive();
  const deliveries = new FakeDirectDeliveries();
  const uptime = new GetUptimeStats(new FakeMonitorLookup(), new FakeCoverage(null, { up: 0.9, down: 0.1 }), clock);
  const ids = sequentialIds();
  const runner = new ReportRunner(sources, runs, renderer, archive, deliveries, uptime, tx, ids, clock);
  const due = new RunDueReports(reports, sources, runs, runner, clock, { lookbackMs: REPORT_LOOKBACK_MS, customerReportTime: '06:00' });
  const givenReports = new CreateReport(reports, refs, ids, clock, immediateTransactions);
  const input = (overrides: Partial<ReportInput> = {}): ReportInput => ({
    name: 'Weekly SLA',
    frequency: 'weekly',
    weekday: 1,
    timeOfDay: '08:00',
    timezone: 'UTC',
    scope: { customers: [], monitors: [], tags: [] },
    recipients: ['cfo@agency.example', 'ops@agency.example'],
    mode: 'always',
    threshold: null,
    slaTarget: 99.9,
    enabled: true,
    ...overrides,
  });
  return {
    clock,
    tx,
    reports,
    refs,
    sources,
    runs,
    renderer,
    archive,
    deliveries,
    runner,
    due,
    input,
    create: new CreateReport(reports, refs, ids, clock, tx),
    update: new UpdateReport(reports, refs, clock, tx),
    now: new RunReportNow(reports, runner, clock),
    pdf: new GetReportPdf(runs, archive),
    /** A report of `input(overrides)` created now by an admin. */
    aReport: (overrides: Partial<ReportInput> = {}) => givenReports.execute(anActor().build(), input(overrides)),
  };
}

export type ReportsWorld = ReturnType<typeof aReportsWorld>;
