import type { Transaction } from '../shared/transaction';
import type { ReportDefinition, ReportScope } from '../../domain/reports/report-definition';
import type { ReportIncidentInput, ReportModel, ReportObjectiveInput } from '../../domain/reports/report-model';
import type { ReportPeriod } from '../../domain/reports/report-schedule';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { MonitorRef } from '../results/ports';
import { token } from '../shared/token';

/** Report definitions of organizations. Customer-bound scopes see none (the area is organization-wide). */
export interface ReportRepository {
  /** Stores a new definition and answers it with its id. */
  add(report: ReportDefinition, tx: Transaction): Promise<ReportDefinition>;
  /** By public id (uuid) or legacy integer id; null when missing or out of scope. */
  findByRef(scope: TenantScope, ref: string): Promise<ReportDefinition | null>;
  /** Oldest first. */
  list(scope: TenantScope): Promise<ReportDefinition[]>;
  /** Optimistic: a definition changed since it was read answers AppError('conflict'). */
  save(report: ReportDefinition, tx: Transaction): Promise<void>;
  remove(report: ReportDefinition, tx: Transaction): Promise<void>;
  /** Unscoped, for the scheduler: every enabled definition of an active organization. */
  enabled(): Promise<ReportDefinition[]>;
}
export const REPORT_REPOSITORY = token<ReportRepository>('ReportRepository');

/** Scope references as a caller writes them (public ids or legacy integer ids). */
export interface ScopeRefs {
  readonly customers: readonly string[];
  readonly monitors: readonly string[];
  readonly tags: readonly string[];
}

/** Translates scope references within an organization, both ways. */
export interface ReportScopeRefs {
  /** The ids of the refs the organization owns, and the refs it does not (foreign or missing). */
  resolve(organizationId: number, refs: ScopeRefs): Promise<{ scope: ReportScope; unknown: ScopeRefs }>;
  /** The public ids of a stored scope (records deleted since are left out). */
  present(organizationId: number, scope: ReportScope): Promise<ScopeRefs>;
}
export const REPORT_SCOPE_REFS = token<ReportScopeRefs>('ReportScopeRefs');

/** A monitor a report covers. */
export interface ReportedMonitor extends MonitorRef {
  readonly customerName: string;
}

/** A customer that asked for its own monthly report (monthlyReportsEnabled). */
export interface MonthlyReportCustomer {
  readonly organizationId: number;
  readonly customerId: number;
  readonly name: string;
  /** notificationEmail, else the contact email. */
  readonly email: string;
}

/** What a report is made of, read from the other contexts' tables. */
export interface ReportSources {
  /** The organization's name and its report logo (PNG or JPEG bytes), null when the organization is gone. */
  organization(organizationId: number): Promise<{ name: string; logo: Uint8Array | null } | null>;
  /** Monitors of the organization in the scope (any of its customers, monitors or tags; all when empty). */
  monitors(organizationId: number, scope: ReportScope): Promise<ReportedMonitor[]>;
  /** Monitors of one customer. */
  customerMonitors(organizationId: number, customerId: number): Promise<ReportedMonitor[]>;
  /** Incidents of these monitors that overlapped the period, by monitor id. */
  incidents(organizationId: number, monitorIds: readonly number[], period: ReportPeriod): Promise<Map<number, ReportIncidentInput[]>>;
  /** Customers with monthlyReportsEnabled, of every organization. */
  monthlyCustomers(): Promise<MonthlyReportCustomer[]>;
}
export const REPORT_SOURCES = token<ReportSources>('ReportSources');

/**
 * The service level objectives a report shows (the service-levels context answers): those covering
 * any of the report's monitors, each measured over the period as its status API measures a range.
 */
export interface ReportObjectives {
  over(organizationId: number, monitors: readonly ReportedMonitor[], period: ReportPeriod, now: Date): Promise<ReportObjectiveInput[]>;
}
export const REPORT_OBJECTIVES = token<ReportObjectives>('ReportObjectives');

/** Turns what a report says into a document. */
export interface ReportRenderer {
  /** A PDF of the model, branded with the logo when there is one. */
  render(model: ReportModel, branding: { logo: Uint8Array | null }): Promise<Uint8Array>;
}
export const REPORT_RENDERER = token<ReportRenderer>('ReportRenderer');

/** Where archived PDFs are kept. */
export interface ReportArchive {
  /** Stores the bytes; answers the path recorded on the run. */
  store(organizationId: number, name: string, bytes: Uint8Array): Promise<string>;
  /** The bytes at a recorded path; null when they cannot be read. */
  read(path: string): Promise<Uint8Array | null>;
}
export const REPORT_ARCHIVE = token<ReportArchive>('ReportArchive');

export {
  REPORT_RUN_STATUSES,
  ReportRun,
  type ReportRunRecord,
  type ReportRunStatus,
  type ReportRunSummary,
} from '../../domain/reports/report-run';
import type { ReportRun, ReportRunRecord, ReportRunStatus } from '../../domain/reports/report-run';

export type NewReportRun = Omit<ReportRunRecord, 'id' | 'status' | 'pdfPath' | 'summary' | 'recipients' | 'error' | 'finishedAt'>;

export interface ReportRunFilter {
  readonly reportId?: number;
  readonly status?: ReportRunStatus;
}

/**
 * Runs. A scheduled run is claimed by inserting its row under a unique (report, slot) or (customer,
 * slot) key inside the transaction that makes the run: the one caller that inserted it makes the
 * run; any other waits for that transaction and then finds the slot taken.
 */
export interface ReportRuns {
  /** Inserts the run (status running); null when its slot is already taken. */
  claim(run: NewReportRun, tx: Transaction): Promise<ReportRun | null>;
  /** Whether a scheduled run of the slot exists (a cheap look before claiming). */
  slotTaken(key: { reportId: number } | { customerId: number }, slot: Date): Promise<boolean>;
  finish(run: ReportRun, tx: Transaction): Promise<void>;
  findByRef(scope: TenantScope, ref: string): Promise<ReportRun | null>;
  /** Newest first. */
  list(
    scope: TenantScope,
    filter: ReportRunFilter,
    page: { page: number; perPage: number },
  ): Promise<{ items: ReportRun[]; total: number }>;
}
export const REPORT_RUNS = token<ReportRuns>('ReportRuns');

/** The organization's logo on its reports: PNG or JPEG bytes. */
export interface ReportLogo {
  readonly contentType: 'image/png' | 'image/jpeg';
  readonly bytes: Uint8Array;
}

/** How an organization brands its reports (its name comes from the organization itself). */
export interface ReportBranding {
  /** Sets the logo, or removes it with null. */
  setLogo(organizationId: number, logo: ReportLogo | null, at: Date, tx: Transaction): Promise<void>;
}
export const REPORT_BRANDING = token<ReportBranding>('ReportBranding');
