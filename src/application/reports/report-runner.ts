import type { ReportDefinition } from '../../domain/reports/report-definition';
import { buildReportModel, type ReportModel } from '../../domain/reports/report-model';
import type { ReportPeriod } from '../../domain/reports/report-schedule';
import { localDate } from '../../domain/shared/zoned-time';
import type { GetUptimeStats } from '../results/get-uptime-stats';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { DirectDeliveries, DirectMessage } from '../notifications/ports';
import type {
  MonthlyReportCustomer,
  ReportArchive,
  ReportedMonitor,
  ReportObjectives,
  ReportRenderer,
  ReportRun,
  ReportRuns,
  ReportSources,
} from './ports';

/** What a run is of: a definition, or a customer's own monthly report (its monitors, sent to it). */
export type RunSubject =
  { readonly kind: 'report'; readonly report: ReportDefinition } | { readonly kind: 'customer'; readonly customer: MonthlyReportCustomer };

export type RunTrigger = { readonly kind: 'schedule'; readonly slot: Date } | { readonly kind: 'manual' };

/** The SLA a customer's monthly report judges against (it has no definition to say otherwise). */
export const CUSTOMER_REPORT_SLA_TARGET = 99.9;

/**
 * The PDF's name in the archive. A scheduled slot's is named by what it is of and the slot, so a
 * slot made again after a worker died midway (its row and mails rolled back, its file written)
 * replaces that file instead of leaving it beside the new one; a manual run's by its own id.
 */
const archiveName = (subject: RunSubject, run: ReportRun): string => {
  if (run.slot === null) return `${run.publicId}.pdf`;
  const of = subject.kind === 'report' ? `report-${subject.report.publicId}` : `customer-${subject.customer.customerId}`;
  return `${of}-${run.slot.getTime()}.pdf`;
};

const titleOf = (subject: RunSubject) => (subject.kind === 'report' ? subject.report.name : `Monthly report: ${subject.customer.name}`);
const zoneOf = (subject: RunSubject) => (subject.kind === 'report' ? subject.report.schedule.timezone : 'UTC');

/**
 * Makes one run: claims it, gathers each monitor's figures (the results context's own computation)
 * and incidents, builds the model, and unless a threshold report finds every monitor above its
 * threshold, renders the PDF, archives it and puts one e-mail per recipient into the delivery ledger.
 * All of it happens in the transaction that inserted the run's row, so a scheduled slot racing on
 * two workers is made once (the second waits on the row's unique key, then finds it taken) and a
 * worker that dies midway leaves no row, so the slot is made again by the next pass. A failure of
 * the making itself is recorded on the run (failed, with its message) rather than retried forever.
 */
export class ReportRunner {
  constructor(
    private readonly sources: ReportSources,
    private readonly runs: ReportRuns,
    private readonly renderer: ReportRenderer,
    private readonly archive: ReportArchive,
    private readonly deliveries: DirectDeliveries,
    private readonly uptime: GetUptimeStats,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly objectives: ReportObjectives = { over: async () => [] },
  ) {}

  run(subject: RunSubject, trigger: RunTrigger, period: ReportPeriod): Promise<ReportRun | null> {
    return this.tx.run(async (tx) => {
      const organizationId = subject.kind === 'report' ? subject.report.organizationId : subject.customer.organizationId;
      const run = await this.runs.claim(
        {
          publicId: this.ids.uuid(),
          organizationId,
          reportId: subject.kind === 'report' ? subject.report.id : null,
          reportPublicId: subject.kind === 'report' ? subject.report.publicId : null,
          customerId: subject.kind === 'customer' ? subject.customer.customerId : null,
          trigger: trigger.kind,
          slot: trigger.kind === 'schedule' ? trigger.slot : null,
          period,
          startedAt: this.clock.now(),
        },
        tx,
      );
      if (!run) return null;
      try {
        await this.make(subject, run, tx);
      } catch (error) {
        run.fail(error instanceof Error ? error.message : String(error), this.clock.now());
      }
      await this.runs.finish(run, tx);
      return run;
    });
  }

  private async make(subject: RunSubject, run: ReportRun, tx: Transaction): Promise<void> {
    const organization = await this.sources.organization(run.organizationId);
    if (!organization) throw new Error('the organization no longer exists');
    const model = await this.model(subject, run, organization.name);
    run.summarize({
      monitors: model.summary.monitors,
      uptimeOfKnownPercent: model.summary.uptimeOfKnownPercent,
      unknownPercent: model.summary.unknownPercent,
      lowestUptime: model.lowestUptime,
      incidents: model.summary.incidents,
      slaMissed: model.summary.slaMissed,
    });
    if (subject.kind === 'report' && !subject.report.shouldSend(model.lowestUptime)) {
      run.skip(this.clock.now());
      return;
    }
    const pdf = await this.renderer.render(model, { logo: organization.logo });
    const pdfPath = await this.archive.store(run.organizationId, archiveName(subject, run), pdf);
    const recipients = subject.kind === 'report' ? subject.report.recipients : [subject.customer.email];
    if (recipients.length > 0)
      await this.deliveries.enqueue(
        recipients.map((to) => this.email(subject, run, model, pdfPath, to)),
        this.clock.now(),
        tx,
      );
    run.complete({ pdfPath, recipients }, this.clock.now());
  }

  private async model(subject: RunSubject, run: ReportRun, organizationName: string): Promise<ReportModel> {
    const monitors: ReportedMonitor[] =
      subject.kind === 'report'
        ? await this.sources.monitors(run.organizationId, subject.report.scope)
        : await this.sources.customerMonitors(run.organizationId, subject.customer.customerId);
    const incidents = await this.sources.incidents(
      run.organizationId,
      monitors.map((m) => m.monitorId),
      run.period,
    );
    const now = this.clock.now();
    const inputs = [];
    for (const monitor of monitors) {
      const { figures } = await this.uptime.figuresFor(monitor, run.period, now);
      inputs.push({
        monitorId: monitor.monitorId,
        name: monitor.name,
        customerName: monitor.customerName,
        figures,
        incidents: incidents.get(monitor.monitorId) ?? [],
      });
    }
    const objectives = await this.objectives.over(run.organizationId, monitors, run.period, now);
    return buildReportModel({
      title: titleOf(subject),
      organizationName,
      period: run.period,
      timezone: zoneOf(subject),
      slaTarget: subject.kind === 'report' ? subject.report.slaTarget : CUSTOMER_REPORT_SLA_TARGET,
      generatedAt: now,
      monitors: inputs,
      objectives,
    });
  }

  private email(subject: RunSubject, run: ReportRun, model: ReportModel, pdfPath: string, to: string): DirectMessage {
    const zone = zoneOf(subject);
    const from = localDate(zone, run.period.from);
    const until = localDate(zone, new Date(run.period.to.getTime() - 1));
    const uptime = model.summary.uptimeOfKnownPercent === null ? 'unknown' : `${model.summary.uptimeOfKnownPercent.toFixed(2)} %`;
    return {
      organizationId: run.organizationId,
      customerId: subject.kind === 'customer' ? subject.customer.customerId : null,
      recipient: { type: 'email', address: to },
      event: 'report.ready',
      subject: `${model.title}: ${from} to ${until}`,
      text:
        `${model.organizationName}: ${model.title} for ${from} to ${until}.\n` +
        `${model.summary.monitors} monitors, uptime ${uptime}, ${model.summary.incidents} incidents, ` +
        `${model.summary.slaMissed} below the ${model.slaTarget} % SLA.\nThe report is attached as a PDF.`,
      data: {
        reportRunId: run.publicId,
        reportId: run.reportPublicId,
        periodFrom: run.period.from.toISOString(),
        periodTo: run.period.to.toISOString(),
      },
      attachments: [{ filename: `report-${from}-to-${until}.pdf`, path: pdfPath, contentType: 'application/pdf' }],
      dedupKey: `report-run:${run.publicId}:${to}`,
    };
  }
}
