import { expect } from 'chai';
import { GetUptimeStats } from '../../../../src/application/results/get-uptime-stats';
import { CreateReport } from '../../../../src/application/reports/create-report';
import { ReportRunner } from '../../../../src/application/reports/report-runner';
import { RunDueReports } from '../../../../src/application/reports/run-due-reports';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import { FakeCoverage, FakeMonitorLookup, aMonitorRef } from '../../../support/fakes/results-fakes';
import {
  FakeReportArchive,
  FakeReportRenderer,
  FakeReportRepository,
  FakeReportRuns,
  FakeReportScopeRefs,
  FakeReportSources,
} from '../../../support/fakes/reports-fakes';
import { recordedTransactions, sequentialIds, immediateTransactions } from '../../../support/fakes/shared-fakes';

/** A report run is claimed and finished in the transaction the runner hands (docs/architecture.md). */
describe('report use cases: writes join the transaction they run in', () => {
  it('a scheduled run claims its slot and records its outcome in the one transaction', async () => {
    const clock = new ManualClock('2026-05-20T00:00:00Z');
    const reports = new FakeReportRepository();
    const sources = new FakeReportSources();
    sources.reportedMonitors = [{ ...aMonitorRef({ monitorId: 7, customerId: 2, name: 'Shop' }), customerName: 'Acme' }];
    const runs = new FakeReportRuns();
    const uptime = new GetUptimeStats(new FakeMonitorLookup(), new FakeCoverage(null, { up: 0.9, down: 0.1 }), clock);
    const ids = sequentialIds();
    const tx = recordedTransactions();
    const mail = new FakeDirectDeliveries();
    const runner = new ReportRunner(sources, runs, new FakeReportRenderer(), new FakeReportArchive(), mail, uptime, tx, ids, clock);
    const due = new RunDueReports(reports, sources, runs, runner, clock, { lookbackMs: 72 * 3_600_000, customerReportTime: '06:00' });
    await new CreateReport(reports, new FakeReportScopeRefs(), ids, clock, immediateTransactions).execute(anActor().build(), {
      name: 'Weekly SLA',
      frequency: 'weekly',
      weekday: 1,
      timeOfDay: '08:00',
      timezone: 'UTC',
      scope: { customers: [], monitors: [], tags: [] },
      recipients: ['ops@agency.example'],
      mode: 'always',
      threshold: null,
      slaTarget: 99.9,
      enabled: true,
    });
    clock.set('2026-06-01T12:00:00Z');
    expect(await due.execute()).to.deep.equal({ made: 1 });
    expect(tx.handed).to.have.length(1);
    expect(runs.joined).to.deep.equal([
      ['claim', tx.handed[0]],
      ['finish', tx.handed[0]],
    ]);
    // The report's mail is enqueued with the outcome it tells of.
    expect(mail.rows).to.have.length.greaterThan(0);
    expect(mail.enqueuedIn).to.deep.equal([tx.handed[0]]);
  });
});
