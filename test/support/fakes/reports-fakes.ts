import type { Transaction } from '../../../src/application/shared/transaction';
import type { Joined } from './monitoring-fakes';
import type { ReportDefinition, ReportScope } from '../../../src/domain/reports/report-definition';
import type { ReportIncidentInput, ReportModel } from '../../../src/domain/reports/report-model';
import type { ReportPeriod } from '../../../src/domain/reports/report-schedule';
import { AppError } from '../../../src/domain/shared/app-error';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import {
  type MonthlyReportCustomer,
  type NewReportRun,
  type ReportArchive,
  type ReportedMonitor,
  type ReportRenderer,
  type ReportRepository,
  ReportRun,
  type ReportRunFilter,
  type ReportRuns,
  type ReportScopeRefs,
  type ReportSources,
  type ScopeRefs,
} from '../../../src/application/reports/ports';

const visible = (scope: TenantScope, organizationId: number) => scope.customerId === null && scope.organizationId === organizationId;
const matches = (ref: string, id: number, publicId: string) => ref === String(id) || ref === publicId;

/** Definitions by organization, with the repository's version check. */
export class FakeReportRepository implements ReportRepository {
  readonly reports: ReportDefinition[] = [];
  private next = 1;

  async add(report: ReportDefinition) {
    report.id = this.next++;
    this.reports.push(report);
    return report;
  }
  async findByRef(scope: TenantScope, ref: string) {
    return this.reports.find((r) => visible(scope, r.organizationId) && matches(ref, r.id, r.publicId)) ?? null;
  }
  async list(scope: TenantScope) {
    return this.reports.filter((r) => visible(scope, r.organizationId));
  }
  async save(report: ReportDefinition) {
    if (!this.reports.includes(report)) throw new AppError('conflict');
    report.version += 1;
  }
  async remove(report: ReportDefinition) {
    this.reports.splice(this.reports.indexOf(report), 1);
  }
  async enabled() {
    return this.reports.filter((r) => r.enabled);
  }
}

/** Records of one organization by kind: ref (public id or `id`) -> id. */
export class FakeReportScopeRefs implements ReportScopeRefs {
  constructor(
    readonly organizationId = 1,
    readonly records: Record<keyof ScopeRefs, { id: number; publicId: string }[]> = {
      customers: [{ id: 2, publicId: 'customer-2' }],
      monitors: [{ id: 7, publicId: 'monitor-7' }],
      tags: [{ id: 9, publicId: 'tag-9' }],
    },
  ) {}

  async resolve(organizationId: number, refs: ScopeRefs) {
    const pick = (kind: keyof ScopeRefs) =>
      refs[kind].map((ref) => ({
        ref,
        record: organizationId === this.organizationId ? this.records[kind].find((r) => matches(ref, r.id, r.publicId)) : undefined,
      }));
    const ids = (kind: keyof ScopeRefs) => pick(kind).flatMap((p) => (p.record ? [p.record.id] : []));
    const unknown = (kind: keyof ScopeRefs) =>
      pick(kind)
        .filter((p) => !p.record)
        .map((p) => p.ref);
    return {
      scope: { customerIds: ids('customers'), monitorIds: ids('monitors'), tagIds: ids('tags') },
      unknown: { customers: unknown('customers'), monitors: unknown('monitors'), tags: unknown('tags') },
    };
  }

  async present(_organizationId: number, scope: ReportScope): Promise<ScopeRefs> {
    const out = (kind: keyof ScopeRefs, ids: readonly number[]) =>
      this.records[kind].filter((r) => ids.includes(r.id)).map((r) => r.publicId);
    return { customers: out('customers', scope.customerIds), monitors: out('monitors', scope.monitorIds), tags: out('tags', scope.tagIds) };
  }
}

/** Monitors, incidents and customers as the other contexts would answer them. */
export class FakeReportSources implements ReportSources {
  organizations = new Map<number, { name: string; logo: Uint8Array | null }>([[1, { name: 'Agency', logo: null }]]);
  reportedMonitors: ReportedMonitor[] = [];
  incidentsOf = new Map<number, ReportIncidentInput[]>();
  customers: MonthlyReportCustomer[] = [];

  async organization(organizationId: number) {
    return this.organizations.get(organizationId) ?? null;
  }
  async monitors(organizationId: number, scope: ReportScope) {
    const whole = scope.customerIds.length + scope.monitorIds.length + scope.tagIds.length === 0;
    return this.reportedMonitors.filter(
      (m) =>
        m.organizationId === organizationId &&
        (whole || scope.customerIds.includes(m.customerId) || scope.monitorIds.includes(m.monitorId)),
    );
  }
  async customerMonitors(organizationId: number, customerId: number) {
    return this.reportedMonitors.filter((m) => m.organizationId === organizationId && m.customerId === customerId);
  }
  async incidents(_organizationId: number, monitorIds: readonly number[], _period: ReportPeriod) {
    return new Map([...this.incidentsOf].filter(([id]) => monitorIds.includes(id)));
  }
  async monthlyCustomers() {
    return this.customers;
  }
}

/** Runs with the adapter's claim rule: one scheduled run per (report, slot) and per (customer, slot). */
export class FakeReportRuns implements ReportRuns {
  readonly joined: Joined = [];
  readonly runs: ReportRun[] = [];

  async claim(run: NewReportRun, tx?: Transaction): Promise<ReportRun | null> {
    this.joined.push(['claim', tx]);
    if (
      run.trigger === 'schedule' &&
      this.runs.some(
        (r) =>
          r.trigger === 'schedule' &&
          r.slot?.getTime() === run.slot?.getTime() &&
          ((run.reportId !== null && r.reportId === run.reportId) || (run.customerId !== null && r.customerId === run.customerId)),
      )
    )
      return null;
    const stored = ReportRun.restore({
      ...run,
      id: this.runs.length + 1,
      status: 'running',
      pdfPath: null,
      summary: null,
      recipients: [],
      error: null,
      finishedAt: null,
    });
    this.runs.push(stored);
    return ReportRun.restore(stored.toRecord());
  }
  async slotTaken(key: { reportId: number } | { customerId: number }, slot: Date) {
    return this.runs.some(
      (r) =>
        r.trigger === 'schedule' &&
        r.slot?.getTime() === slot.getTime() &&
        ('reportId' in key ? r.reportId === key.reportId : r.customerId === key.customerId),
    );
  }
  async finish(run: ReportRun, tx?: Transaction) {
    this.joined.push(['finish', tx]);
    this.runs[this.runs.findIndex((r) => r.id === run.id)] = ReportRun.restore(run.toRecord());
  }
  async findByRef(scope: TenantScope, ref: string) {
    return this.runs.find((r) => visible(scope, r.organizationId) && matches(ref, r.id, r.publicId)) ?? null;
  }
  async list(scope: TenantScope, filter: ReportRunFilter, page: { page: number; perPage: number }) {
    const all = this.runs
      .filter(
        (r) =>
          visible(scope, r.organizationId) &&
          (filter.reportId === undefined || r.reportId === filter.reportId) &&
          (filter.status === undefined || r.status === filter.status),
      )
      .reverse();
    return { items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage), total: all.length };
  }
}

/** A "PDF" that is the model's title and monitor names, so tests can see what was rendered; or a failure. */
export class FakeReportRenderer implements ReportRenderer {
  readonly rendered: ReportModel[] = [];
  failWith: Error | null = null;

  async render(model: ReportModel) {
    if (this.failWith) throw this.failWith;
    this.rendered.push(model);
    return new TextEncoder().encode(`%PDF ${model.title}: ${model.monitors.map((m) => m.name).join(', ')}`);
  }
}

/** Files in memory by path. */
export class FakeReportArchive implements ReportArchive {
  readonly files = new Map<string, Uint8Array>();

  async store(organizationId: number, name: string, bytes: Uint8Array) {
    const path = `/data/reports/${organizationId}/${name}`;
    this.files.set(path, bytes);
    return path;
  }
  async read(path: string) {
    return this.files.get(path) ?? null;
  }
}
