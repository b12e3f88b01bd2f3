import { dayBar, headline, monitorState, worstState, type DayBar } from '../../domain/status-pages/component-status';
import { componentKey, type StatusPage } from '../../domain/status-pages/status-page';
import type { PageIncident } from '../../domain/status-pages/page-incident';
import type { MaintenanceWindow } from '../../domain/maintenance/maintenance-window';
import { nextOccurrence, occurrenceAt, occurrencesBetween } from '../../domain/maintenance/occurrences';
import type { MaintenanceWindowRepository, RecurrenceExpander } from '../maintenance/ports';
import {
  NO_PAGE_OBJECTIVES,
  type ComponentCatalog,
  type ComponentRecord,
  type PageIncidentRepository,
  type PageObjectives,
  type ServiceIncident,
  type StatusPageReadings,
} from './ports';
import type { PublicComponent, PublicIncident, PublicMaintenance, PublicObjective, PublicStatusPage } from './public-status-page';

const DAY_MS = 86_400_000;
export const HISTORY_DAYS = 90;
/** Scheduled maintenance further ahead than this is not listed. */
const SCHEDULED_HORIZON_MS = 30 * DAY_MS;
/** A page showing objectives is measured again after this long at the latest: attainment moves with time. */
export const OBJECTIVES_FRESH_MS = 60_000;

const utcDay = (t: number) => new Date(Math.floor(t / DAY_MS) * DAY_MS);
const dayKey = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Builds what a page shows at an instant: each component's state (maintenance first, then the last
 * results), 90 daily bars, incidents told on the page or opened by the checks, and maintenance.
 */
export class BuildPublicStatusPage {
  constructor(
    private readonly catalog: ComponentCatalog,
    private readonly readings: StatusPageReadings,
    private readonly incidents: PageIncidentRepository,
    private readonly windows: MaintenanceWindowRepository,
    private readonly expander: RecurrenceExpander,
    private readonly pageObjectives: PageObjectives = NO_PAGE_OBJECTIVES,
  ) {}

  async execute(page: StatusPage, version: string, now: Date): Promise<PublicStatusPage> {
    const records = await this.catalog.existing(page.organizationId, page.components);
    const readings = await this.readings.readings(page.organizationId, page.components);
    const windows = (await this.windows.list({ organizationId: page.organizationId, customerId: null })).filter((w) =>
      page.components.some((c) => covers(w, c, records)),
    );
    const today = utcDay(now.getTime());
    const from = new Date(today.getTime() - (HISTORY_DAYS - 1) * DAY_MS);
    const monitorIds = page.components.filter((c) => c.type === 'monitor' && records.has(componentKey(c))).map((c) => c.id);
    const coverage = await this.readings.dailyCoverage(monitorIds, from, now);
    const since = new Date(now.getTime() - HISTORY_DAYS * DAY_MS);
    const service = await this.readings.incidents(page.organizationId, monitorIds, since);
    const told = await this.incidents.list(page.id, since);
    let validUntil = new Date(today.getTime() + DAY_MS);

    const groups = page.groups.map((group) => {
      const components = group.components.flatMap((c): PublicComponent[] => {
        const record = records.get(componentKey(c));
        if (!record) return [];
        const reading = readings.get(componentKey(c));
        const covering = windows.filter((w) => covers(w, c, records));
        const inMaintenance = covering.some((w) => occurrenceAt(w, now, this.expander) !== null);
        let days: DayBar[] | null = null;
        let uptimePercent: number | null = null;
        let uptimeSince: Date | null = null;
        if (c.type === 'monitor') {
          const created = reading?.createdAt.getTime() ?? now.getTime();
          const perDay = coverage.get(c.id);
          let known = 0;
          let upKnown = 0;
          days = [];
          for (let t = from.getTime(); t <= today.getTime(); t += DAY_MS) {
            const start = Math.max(t, created);
            const end = Math.min(t + DAY_MS, now.getTime());
            const seen = perDay?.get(dayKey(new Date(t))) ?? { up: 0, degraded: 0, down: 0 };
            const maintenanceSeconds = covering.reduce(
              (sum, w) =>
                sum +
                occurrencesBetween(w, new Date(t), new Date(t + DAY_MS), this.expander, 50).reduce(
                  (s, o) => s + (Math.min(o.end.getTime(), t + DAY_MS) - Math.max(o.start.getTime(), t)) / 1000,
                  0,
                ),
              0,
            );
            days.push(
              dayBar(dayKey(new Date(t)), {
                upSeconds: seen.up,
                degradedSeconds: seen.degraded,
                downSeconds: seen.down,
                expectedSeconds: Math.max(0, (end - start) / 1000),
                maintenanceSeconds,
              }),
            );
            known += seen.up + seen.degraded + seen.down;
            upKnown += seen.up + seen.degraded;
          }
          uptimePercent = known > 0 ? Math.floor((upKnown / known) * 10_000) / 100 : null;
          // A monitor younger than the bars says since when its figure counts, not "over 90 days".
          uptimeSince = known > 0 && created > from.getTime() ? new Date(created) : null;
        }
        return [
          {
            id: record.publicId,
            type: c.type,
            name: c.name ?? record.publicName ?? record.name,
            state: monitorState(reading?.lastStatuses ?? [], inMaintenance),
            responseTimeMs: page.showResponseTimes && c.type === 'monitor' ? (reading?.lastResponseTimeMs ?? null) : null,
            days,
            uptimePercent,
            uptimeSince,
          },
        ];
      });
      return { name: group.name, state: worstState(components.map((c) => c.state)), components };
    });

    const publicIdOf = (key: string) => records.get(key)?.publicId;
    // The name each monitor goes by on this page, as of now: incident texts follow renames.
    const shownNames = new Map(
      page.groups
        .flatMap((g) => g.components)
        .flatMap((c) => {
          const record = records.get(componentKey(c));
          return record ? [[componentKey(c), c.name ?? record.publicName ?? record.name] as const] : [];
        }),
    );
    const incidents = this.incidentsShown(service, told, records, publicIdOf, shownNames);
    const maintenance = this.maintenanceShown(page, windows, records, now);
    for (const m of [...maintenance.active, ...maintenance.scheduled]) {
      const boundary = m.start.getTime() > now.getTime() ? m.start : m.end;
      if (boundary.getTime() < validUntil.getTime()) validUntil = boundary;
    }
    const objectives = await this.objectivesShown(page);
    if (objectives.length > 0 && now.getTime() + OBJECTIVES_FRESH_MS < validUntil.getTime())
      validUntil = new Date(now.getTime() + OBJECTIVES_FRESH_MS);
    const state = worstState(groups.flatMap((g) => g.components.map((c) => c.state)));
    return {
      page,
      state,
      headline: headline(state),
      groups,
      activeIncidents: incidents.filter((i) => i.resolvedAt === null),
      pastIncidents: incidents.filter((i) => i.resolvedAt !== null),
      activeMaintenance: maintenance.active,
      scheduledMaintenance: maintenance.scheduled,
      objectives,
      generatedAt: now,
      validUntil,
      version,
    };
  }

  /**
   * Incidents as the public reads them. An automatic incident is named by its monitor's name on
   * this page at the time of reading ("Shop is down"), never by the text stored when it opened
   * (which names the monitor as it was then, possibly by its target).
   */
  private incidentsShown(
    service: readonly ServiceIncident[],
    told: readonly PageIncident[],
    records: Map<string, ComponentRecord>,
    publicIdOf: (key: string) => string | undefined,
    shownNames: ReadonlyMap<string, string>,
  ): PublicIncident[] {
    const nameOf = (s: ServiceIncident) => {
      const key = componentKey({ type: 'monitor', id: s.monitorId });
      return shownNames.get(key) ?? records.get(key)?.publicName ?? 'a component';
    };
    const titleOf = (s: ServiceIncident) => (s.origin === 'automatic' ? `${nameOf(s)} is down` : s.title);
    const byService = new Map(told.filter((t) => t.incidentId !== null).map((t) => [t.incidentId!, t]));
    const shown: PublicIncident[] = [];
    for (const t of told) {
      const svc = t.incidentId === null ? undefined : service.find((s) => s.id === t.incidentId);
      const updates = [...t.updates].reverse().map((u) => ({ status: u.status, message: u.message, at: u.createdAt }));
      // A service incident that recovered closes its story even if nobody posted "resolved".
      const closedBySystem = svc !== undefined && !svc.open && t.isOpen;
      if (closedBySystem) updates.unshift({ status: 'resolved', message: 'This incident has been resolved.', at: svc.resolvedAt! });
      shown.push({
        // A page story opened on an automatic incident with its default title reads as the incident does now.
        id: t.publicId,
        title: svc && svc.origin === 'automatic' && t.title === svc.title ? titleOf(svc) : t.title,
        status: closedBySystem ? 'resolved' : t.status,
        origin: svc ? svc.origin : t.incidentId === null ? 'page' : 'automatic',
        componentIds: t.componentKeys.flatMap((k) => publicIdOf(k) ?? []),
        startedAt: svc?.startedAt ?? t.createdAt,
        resolvedAt: closedBySystem ? svc.resolvedAt : t.resolvedAt,
        updates,
      });
    }
    for (const s of service) {
      if (byService.has(s.id)) continue;
      const key = componentKey({ type: 'monitor', id: s.monitorId });
      const name = nameOf(s);
      const updates: PublicIncident['updates'][number][] = [
        { status: 'investigating', message: `We are investigating a problem with ${name}.`, at: s.startedAt },
      ];
      if (s.resolvedAt) updates.unshift({ status: 'resolved', message: 'This incident has been resolved.', at: s.resolvedAt });
      shown.push({
        id: s.publicId,
        title: titleOf(s),
        status: s.open ? 'investigating' : 'resolved',
        origin: s.origin,
        // Its own component, and the page's monitors it holds back (they fail because its monitor is down).
        componentIds: [key, ...(s.affectedMonitorIds ?? []).map((id) => componentKey({ type: 'monitor', id }))].flatMap(
          (k) => publicIdOf(k) ?? [],
        ),
        startedAt: s.startedAt,
        resolvedAt: s.open ? null : s.resolvedAt,
        updates,
      });
    }
    return shown.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
  }

  /** The page's objectives measured now; on a customer's page only that customer's (an objective may have moved since). */
  private async objectivesShown(page: StatusPage): Promise<PublicObjective[]> {
    if (page.objectives.length === 0) return [];
    const measured = await this.pageObjectives.measure(page.organizationId, page.objectives);
    return measured
      .filter((o) => page.customerId === null || o.customerId === page.customerId)
      .map(({ id: _id, publicId, customerId: _customer, ...rest }) => ({ id: publicId, ...rest }));
  }

  private maintenanceShown(page: StatusPage, windows: readonly MaintenanceWindow[], records: Map<string, ComponentRecord>, now: Date) {
    const active: PublicMaintenance[] = [];
    const scheduled: PublicMaintenance[] = [];
    for (const w of windows) {
      const componentIds = page.components
        .filter((c) => covers(w, c, records))
        .flatMap((c) => records.get(componentKey(c))?.publicId ?? []);
      const base = { id: w.publicId, title: w.title, description: w.description, componentIds };
      const current = occurrenceAt(w, now, this.expander);
      if (current) active.push({ ...base, start: current.start, end: current.end });
      const next = nextOccurrence(w, now, this.expander, SCHEDULED_HORIZON_MS);
      if (next) scheduled.push({ ...base, start: next.start, end: next.end });
    }
    return { active, scheduled: scheduled.sort((a, b) => a.start.getTime() - b.start.getTime()) };
  }
}

function covers(window: MaintenanceWindow, c: { type: string; id: number }, records: Map<string, ComponentRecord>): boolean {
  const record = records.get(componentKey(c as never));
  if (!record) return false;
  if (c.type === 'monitor') return window.coversMonitor({ monitorId: c.id, customerId: record.customerId });
  return window.coversAsset({ type: c.type as 'customerIp' | 'customerDomain', id: c.id, customerId: record.customerId });
}
