import { expect } from 'chai';
import { ReportRun, type ReportRunRecord, type ReportRunSummary } from '../../../../src/domain/reports/report-run';

const STARTED = new Date('2026-11-01T00:00:05Z');
const LATER = new Date('2026-11-01T00:00:09Z');
const SUMMARY: ReportRunSummary = {
  monitors: 3,
  uptimeOfKnownPercent: 99.5,
  unknownPercent: 0,
  lowestUptime: 98,
  incidents: 2,
  slaMissed: 1,
};

const running = (over: Partial<ReportRunRecord> = {}) =>
  ReportRun.restore({
    id: 1,
    publicId: 'c0ffee00-0000-4000-8000-000000000001',
    organizationId: 7,
    reportId: 3,
    reportPublicId: 'c0ffee00-0000-4000-8000-000000000003',
    customerId: null,
    trigger: 'schedule',
    slot: new Date('2026-11-01T00:00:00Z'),
    period: { from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-11-01T00:00:00Z') },
    status: 'running',
    pdfPath: null,
    summary: null,
    recipients: [],
    error: null,
    startedAt: STARTED,
    finishedAt: null,
    ...over,
  });

describe('a report run', () => {
  it('completes once summarized, with its PDF, its recipients and the time it ended', () => {
    const run = running();
    run.summarize(SUMMARY);
    run.complete({ pdfPath: '7/report.pdf', recipients: ['ops@example.test'] }, LATER);
    expect(run.toRecord()).to.include({ status: 'completed', pdfPath: '7/report.pdf', error: null, finishedAt: LATER });
    expect(run.recipients).to.deep.equal(['ops@example.test']);
    expect(run.summary).to.deep.equal(SUMMARY);
  });

  it('is skipped on its summary (nothing rendered or sent) and cannot be skipped or completed before it has one', () => {
    const run = running();
    expect(() => run.skip(LATER)).to.throw(/skipped on its summary/);
    expect(() => run.complete({ pdfPath: 'x.pdf', recipients: [] }, LATER)).to.throw(/completes with its summary/);
    run.summarize(SUMMARY);
    run.skip(LATER);
    expect(run.toRecord()).to.include({ status: 'skipped', pdfPath: null, finishedAt: LATER });
    expect(run.recipients).to.deep.equal([]);
  });

  it('fails with why, keeping the summary it had found', () => {
    const run = running();
    run.summarize(SUMMARY);
    run.fail('the organization no longer exists', LATER);
    expect(run.toRecord()).to.include({ status: 'failed', error: 'the organization no longer exists', finishedAt: LATER });
    expect(run.summary).to.deep.equal(SUMMARY);
  });

  it('ends once: a finished run neither changes its summary nor ends again', () => {
    for (const status of ['completed', 'skipped', 'failed'] as const) {
      const run = running({ status, summary: SUMMARY, finishedAt: LATER });
      expect(() => run.summarize(SUMMARY), status).to.throw(`cannot summarize a report run that is ${status}`);
      expect(() => run.fail('late', LATER), status).to.throw(`cannot fail a report run that is ${status}`);
      expect(() => run.skip(LATER), status).to.throw(`cannot skip a report run that is ${status}`);
      expect(() => run.complete({ pdfPath: 'x.pdf', recipients: [] }, LATER), status).to.throw(`cannot complete`);
      expect(run.status).to.equal(status);
    }
  });

  it('keeps its state to itself: the stored form and the recipients are copies', () => {
    const run = running();
    run.summarize(SUMMARY);
    const recipients = ['a@example.test'];
    run.complete({ pdfPath: 'r.pdf', recipients }, LATER);
    recipients.push('b@example.test');
    const record = run.toRecord() as unknown as { recipients: string[] };
    record.recipients.push('c@example.test');
    expect(run.recipients).to.deep.equal(['a@example.test']);
  });
});
