import type { ReportPeriod } from './report-schedule';

export const REPORT_RUN_STATUSES = ['running', 'completed', 'skipped', 'failed'] as const;
export type ReportRunStatus = (typeof REPORT_RUN_STATUSES)[number];

export interface ReportRunSummary {
  readonly monitors: number;
  readonly uptimeOfKnownPercent: number | null;
  readonly unknownPercent: number | null;
  readonly lowestUptime: number | null;
  readonly incidents: number;
  readonly slaMissed: number;
}

/** A run as it is stored: what it covered and what came of it. */
export interface ReportRunRecord {
  readonly id: number;
  readonly publicId: string;
  readonly organizationId: number;
  /** The definition run (null for a customer's monthly report, or once the definition is deleted). */
  readonly reportId: number | null;
  readonly reportPublicId: string | null;
  /** The customer of a monthly customer report. */
  readonly customerId: number | null;
  readonly trigger: 'schedule' | 'manual';
  /** The scheduled instant a scheduled run stands for; null for a manual run. */
  readonly slot: Date | null;
  readonly period: ReportPeriod;
  readonly status: ReportRunStatus;
  readonly pdfPath: string | null;
  readonly summary: ReportRunSummary | null;
  readonly recipients: readonly string[];
  readonly error: string | null;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
}

/**
 * One run of a report (or of a customer's monthly report). It starts `running` and ends once:
 * `completed` (its PDF stored and sent to its recipients), `skipped` (its report sends only below a
 * threshold the period stayed above) or `failed` (with why). Its summary is known before it ends, so
 * a skipped or failed run still says what the period looked like when it got that far.
 */
export class ReportRun {
  private constructor(private record: ReportRunRecord) {}

  /** A run as stored (its adapter's rows). */
  static restore(record: ReportRunRecord): ReportRun {
    return new ReportRun({ ...record, recipients: [...record.recipients] });
  }

  get id(): number {
    return this.record.id;
  }
  get publicId(): string {
    return this.record.publicId;
  }
  get organizationId(): number {
    return this.record.organizationId;
  }
  get reportId(): number | null {
    return this.record.reportId;
  }
  get reportPublicId(): string | null {
    return this.record.reportPublicId;
  }
  get customerId(): number | null {
    return this.record.customerId;
  }
  get trigger(): 'schedule' | 'manual' {
    return this.record.trigger;
  }
  get slot(): Date | null {
    return this.record.slot;
  }
  get period(): ReportPeriod {
    return this.record.period;
  }
  get status(): ReportRunStatus {
    return this.record.status;
  }
  get pdfPath(): string | null {
    return this.record.pdfPath;
  }
  get summary(): ReportRunSummary | null {
    return this.record.summary;
  }
  get recipients(): readonly string[] {
    return this.record.recipients;
  }
  get error(): string | null {
    return this.record.error;
  }
  get startedAt(): Date {
    return this.record.startedAt;
  }
  get finishedAt(): Date | null {
    return this.record.finishedAt;
  }

  /** The stored form, for its adapter. */
  toRecord(): ReportRunRecord {
    return { ...this.record, recipients: [...this.record.recipients] };
  }

  /** What the period looked like, once the run has read it. */
  summarize(summary: ReportRunSummary): void {
    this.mustRun('summarize');
    this.record = { ...this.record, summary };
  }

  /** The period stayed above the report's threshold: nothing is rendered or sent. */
  skip(at: Date): void {
    this.mustRun('skip');
    if (!this.record.summary) throw new Error('a report run is skipped on its summary');
    this.end({ status: 'skipped' }, at);
  }

  /** The PDF is stored at `pdfPath` and its messages to `recipients` are queued. */
  complete(result: { pdfPath: string; recipients: readonly string[] }, at: Date): void {
    this.mustRun('complete');
    if (!this.record.summary) throw new Error('a report run completes with its summary');
    this.end({ status: 'completed', pdfPath: result.pdfPath, recipients: [...result.recipients] }, at);
  }

  /** The run could not finish; what it found before stays. */
  fail(error: string, at: Date): void {
    this.mustRun('fail');
    this.end({ status: 'failed', error }, at);
  }

  private mustRun(action: string): void {
    if (this.record.status !== 'running') throw new Error(`cannot ${action} a report run that is ${this.record.status}`);
  }

  private end(change: Partial<ReportRunRecord>, at: Date): void {
    this.record = { ...this.record, ...change, finishedAt: at };
  }
}
