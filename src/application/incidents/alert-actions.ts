import type { AlertDecision } from '../../domain/incidents/alert-decision';
import type { AlertEvent, AlertEventKind } from '../../domain/incidents/alert-event';
import type { AlertState } from '../../domain/incidents/alert-state';
import { Incident } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { CheckObservation } from '../../domain/results/check-status';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { MonitorRef } from '../results/ports';
import { NO_INCIDENT_ROUTING, type IncidentEvents, type IncidentRepository, type IncidentRouting, type RoutedIncident } from './ports';

const CONDITION_SUMMARY = {
  sslExpiryReminder: 'certificate expires soon',
  sslExpired: 'certificate expired',
  dnsblReminder: 'address is on a blocklist',
} as const;

export interface DecisionContext {
  readonly state: AlertState;
  readonly incident: Incident | null;
  readonly monitor: MonitorRef;
  readonly location: string;
  readonly result: CheckObservation;
}

/**
 * What the decisions of one batch change, kept in memory until `AlertActions.persist` writes it all
 * with a few set-based statements: incidents opened and resolved, timeline entries, events, and
 * the incidents to route, each list in decision order.
 */
export class AlertEffects {
  readonly opened: Incident[] = [];
  readonly resolved: Incident[] = [];
  readonly timeline: TimelineEntry[] = [];
  readonly events: AlertEvent[] = [];
  readonly routedOpenings: RoutedIncident[] = [];
  readonly routedResolutions: RoutedIncident[] = [];
  private readonly reserved: number[] = [];

  /**
   * `reserve` takes fresh incident ids; `openingsAtMost` says how many more incidents the batch may
   * still open (its down results not judged yet), so ids are taken once, when the first one opens.
   */
  constructor(
    private readonly reserve: (count: number) => Promise<number[]>,
    private readonly openingsAtMost: () => number,
  ) {}

  async incidentId(): Promise<number> {
    if (this.reserved.length === 0) this.reserved.push(...(await this.reserve(Math.max(1, this.openingsAtMost()))));
    return this.reserved.shift()!;
  }
}

/**
 * Carries out the alert rules' decisions: incidents, their timeline and the domain events are
 * collected in AlertEffects as the rules decide, then written together (`persist`).
 */
export class AlertActions {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly events: IncidentEvents,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly routing: IncidentRouting = NO_INCIDENT_ROUTING,
  ) {}

  /** Answers the monitor's open incident after the decision. */
  async carryOut(decision: AlertDecision, ctx: DecisionContext, effects: AlertEffects): Promise<Incident | null> {
    const at = ctx.result.checkedAt;
    switch (decision.kind) {
      case 'open':
        return this.open(decision.startedAt, decision.failingLocations, ctx, effects);
      case 'locationReport':
        if (ctx.incident) effects.timeline.push(this.report(ctx.incident.id, ctx.location, ctx));
        return ctx.incident;
      case 'remind':
        if (!ctx.incident) return null;
        effects.timeline.push(new TimelineEntry({ incidentId: ctx.incident.id, kind: 'reminder', at }));
        effects.events.push(
          this.event('reminderDue', ctx, ctx.incident, `${ctx.monitor.name} is still down`, { startedAt: ctx.incident.startedAt }),
        );
        return ctx.incident;
      case 'resolve':
        if (!ctx.incident) return null;
        ctx.incident.resolve({ userId: null, automatic: true }, at, this.clock.now());
        effects.resolved.push(ctx.incident);
        effects.timeline.push(
          new TimelineEntry({
            incidentId: ctx.incident.id,
            kind: 'resolved',
            at,
            location: ctx.location,
            status: ctx.result.status,
          }),
        );
        effects.events.push(
          this.event('incidentResolved', ctx, ctx.incident, `${ctx.monitor.name} recovered`, {
            startedAt: ctx.incident.startedAt,
            resolvedAt: at,
            durationSeconds: Math.round((at.getTime() - ctx.incident.startedAt.getTime()) / 1000),
          }),
        );
        effects.routedResolutions.push({ incident: ctx.incident, monitor: ctx.monitor });
        return null;
      case 'sslExpiryReminder':
      case 'sslExpired':
      case 'dnsblReminder': {
        const what = CONDITION_SUMMARY[decision.kind];
        effects.events.push(
          this.event(decision.kind, ctx, null, `${ctx.monitor.name}: ${what}`, {
            since: decision.since,
            first: decision.first,
            reasonCode: ctx.result.reasonCode,
            message: ctx.result.message,
            evidence: ctx.result.evidence,
          }),
        );
        return ctx.incident;
      }
    }
  }

  /**
   * Writes what the batch's decisions changed, inside the caller's transaction: the new incidents
   * (as they stand at the end of the batch: one opened and recovered within it is inserted resolved),
   * the other resolutions, the timeline and the events (one statement each), then the routing.
   */
  async persist(effects: AlertEffects): Promise<void> {
    const opened = new Set(effects.opened);
    await this.incidents.addMany(effects.opened);
    await this.incidents.saveResolutions(effects.resolved.filter((incident) => !opened.has(incident)));
    await this.incidents.addTimeline(effects.timeline);
    await this.events.publish(effects.events);
    await this.routing.opened(effects.routedOpenings);
    await this.routing.resolved(effects.routedResolutions);
  }

  private async open(startedAt: Date, failingLocations: readonly string[], ctx: DecisionContext, effects: AlertEffects): Promise<Incident> {
    const { result, monitor } = ctx;
    const incident = new Incident({
      id: await effects.incidentId(),
      publicId: this.ids.uuid(),
      organizationId: ctx.state.organizationId,
      customerId: ctx.state.customerId,
      monitorId: monitor.monitorId,
      origin: 'automatic',
      title: `${monitor.name} is down`,
      description: null,
      causeReasonCode: result.reasonCode,
      causeMessage: result.message,
      startedAt,
      createdByUserId: null,
      now: this.clock.now(),
    });
    effects.opened.push(incident);
    ctx.state.incidentOpened(incident.id, result.checkedAt);
    effects.timeline.push(
      new TimelineEntry({
        incidentId: incident.id,
        kind: 'opened',
        at: result.checkedAt,
        reasonCode: result.reasonCode,
        message: result.message,
      }),
      ...failingLocations.map((code) => this.report(incident.id, code, ctx)),
    );
    effects.events.push(
      this.event('incidentOpened', ctx, incident, `${monitor.name} is down`, {
        startedAt,
        failingLocations,
        reasonCode: result.reasonCode,
        message: result.message,
      }),
    );
    effects.routedOpenings.push({ incident, monitor });
    return incident;
  }

  private report(incidentId: number, code: string, ctx: DecisionContext): TimelineEntry {
    const seen = ctx.state.location(code);
    const own = code === ctx.location;
    return new TimelineEntry({
      incidentId,
      kind: 'locationReport',
      at: own ? ctx.result.checkedAt : (seen?.lastCheckedAt ?? ctx.result.checkedAt),
      location: code,
      status: seen?.status ?? ctx.result.status,
      reasonCode: seen?.reasonCode ?? null,
      message: own ? ctx.result.message : null,
    });
  }

  private event(
    kind: AlertEventKind,
    ctx: DecisionContext,
    incident: Incident | null,
    summary: string,
    data: Record<string, unknown>,
  ): AlertEvent {
    return {
      kind,
      version: 1,
      organizationId: ctx.state.organizationId,
      customerId: ctx.state.customerId,
      monitorId: ctx.monitor.monitorId,
      incidentPublicId: incident?.publicId ?? null,
      occurredAt: ctx.result.checkedAt,
      summary,
      data: { monitorPublicId: ctx.monitor.publicId, location: ctx.location, ...data },
    };
  }
}

/**
 * The roots opened in this batch that hold failing monitors back (dependencyDown): their opening
 * message tells how many (`affectedMonitors`), so one message stands for the root and its dependents.
 */
export function tellAffected(effects: AlertEffects, heldCounts: ReadonlyMap<number, number>): void {
  effects.events.forEach((event, k) => {
    const count = event.kind === 'incidentOpened' ? (heldCounts.get(event.monitorId) ?? 0) : 0;
    if (count === 0) return;
    const what = count === 1 ? '1 monitor depending on it is affected' : `${count} monitors depending on it are affected`;
    effects.events[k] = { ...event, summary: `${event.summary}; ${what}`, data: { ...event.data, affectedMonitors: count } };
  });
}
