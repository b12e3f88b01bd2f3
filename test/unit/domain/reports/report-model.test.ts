import { expect } from 'chai';
import { buildReportModel, type ReportMonitorInput } from '../../../../src/domain/reports/report-model';
import { ReportDefinition, type ReportSettings } from '../../../../src/domain/reports/report-definition';
import { uptimeFigures, emptyCoverage } from '../../../../src/domain/results/uptime-figures';
import { codeOf } from '../../../support/expect-app-error';

const at = (iso: string) => new Date(iso);
const DAY = 86_400;
const period = { from: at('2026-05-01T00:00:00Z'), to: at('2026-05-02T00:00:00Z') };

/** Figures of one location over one day from seconds up, down and observed. */
const figures = (up: number, down: number) =>
  uptimeFigures({ ...emptyCoverage(), upSeconds: up, downSeconds: down, locations: ['eu'] }, DAY, 1);

const aMonitor = (name: string, up: number, down: number, incidents: ReportMonitorInput['incidents'] = []): ReportMonitorInput => ({
  name,
  customerName: 'Acme',
  figures: figures(up, down),
  incidents,
});

const model = (monitors: ReportMonitorInput[], slaTarget = 99.9) =>
  buildReportModel({
    title: 'Monthly',
    organizationName: 'Agency',
    period,
    timezone: 'UTC',
    slaTarget,
    generatedAt: period.to,
    monitors,
  });

describe('report model', () => {
  it('judges the SLA on observed time and reports unobserved time as unknown, never as up', () => {
    const half = model([aMonitor('Half observed', DAY / 2, 0)]);
    const [monitor] = half.monitors;
    expect(monitor).to.include({ uptimePercent: 50, unknownPercent: 50, uptimeOfKnownPercent: 100, unknownSeconds: DAY / 2, sla: 'met' });
    const never = model([aMonitor('Never checked', 0, 0)]);
    expect(never.monitors[0]).to.include({ uptimeOfKnownPercent: null, unknownPercent: 100, sla: 'unknown' });
    expect(never.lowestUptime).to.equal(null);
  });

  it('misses the SLA below the target and lists the worst monitor first', () => {
    const report = model([aMonitor('Blog', DAY, 0), aMonitor('Shop', DAY - 864, 864)], 99.5);
    expect(report.monitors.map((m) => [m.name, m.uptimeOfKnownPercent, m.sla])).to.deep.equal([
      ['Shop', 99, 'missed'],
      ['Blog', 100, 'met'],
    ]);
    expect(report.summary).to.include({
      monitors: 2,
      uptimeOfKnownPercent: 99.5,
      downtimeSeconds: 864,
      slaMet: 1,
      slaMissed: 1,
      slaUnknown: 0,
    });
    expect(report.lowestUptime).to.equal(99);
  });

  it('gives each incident its cause and only its duration inside the period', () => {
    const report = model([
      aMonitor('Shop', DAY - 7200, 7200, [
        {
          title: 'Shop down',
          causeReasonCode: 'timeout',
          causeMessage: 'no answer in 30 s',
          startedAt: at('2026-04-30T23:00:00Z'),
          resolvedAt: at('2026-05-01T01:00:00Z'),
        },
        { title: 'Planned?', causeReasonCode: null, causeMessage: null, startedAt: at('2026-05-01T23:00:00Z'), resolvedAt: null },
      ]),
    ]);
    expect(report.monitors[0]!.incidents.map((i) => [i.cause, i.durationSeconds])).to.deep.equal([
      ['timeout: no answer in 30 s', 3600],
      ['declared manually', 3600],
    ]);
    expect(report.summary.incidents).to.equal(2);
  });
});

describe('report definition', () => {
  const settings = (overrides: Partial<ReportSettings> = {}): ReportSettings => ({
    name: 'Weekly',
    schedule: { frequency: 'weekly', weekday: 1, dayOfMonth: null, timeOfDay: '08:00', timezone: 'UTC' },
    scope: { customerIds: [], monitorIds: [], tagIds: [] },
    recipients: [],
    mode: 'always',
    threshold: null,
    slaTarget: 99.9,
    enabled: true,
    ...overrides,
  });
  const aReport = (overrides: Partial<ReportSettings> = {}) => new ReportDefinition('id', 1, settings(overrides), period.from, period.from);

  it('refuses the threshold mode without a threshold (invalidReportScope), on create and on change', () => {
    expect(codeOf(() => aReport({ mode: 'threshold' }))).to.equal('invalidReportScope');
    const report = aReport();
    expect(codeOf(() => report.change(settings({ mode: 'threshold', threshold: null }), period.to))).to.equal('invalidReportScope');
    expect(report.mode).to.equal('always');
  });

  it('sends a threshold report only when the lowest uptime fell below the threshold', () => {
    const report = aReport({ mode: 'threshold', threshold: 99 });
    expect(report.shouldSend(98.99)).to.equal(true);
    expect(report.shouldSend(99)).to.equal(false);
    expect(report.shouldSend(null)).to.equal(false);
    expect(aReport().shouldSend(null)).to.equal(true);
  });
});
