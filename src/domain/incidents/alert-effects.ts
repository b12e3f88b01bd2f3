import type { AlertDecision } from './alert-decision';
import type { AlertEvent, AlertEventKind } from './alert-event';
import type { AlertState } from './alert-state';
import { Incident } from './incident';
import { TimelineEntry } from './timeline-entry';
import type { CheckObservation } from '../results/check-status';

const CONDITION_SUMMARY = {
  sslExpiryReminder: 'certificate expires soon',
  sslExpired: 'certificate expired',
  dnsblReminder: 'address is on a blocklist',
} as const;

/** The monitor as its incidents and events name it. */
export interface AlertedMonitor {
  readonly monitorId: number;
  readonly publicId: string;
  readonly name: string;
}

/** An automatic incident with the monitor it is about (what the routing beyond the engine takes). */
export interface IncidentOfMonitor {
  readonly incident: Incident;
  readonly monitor: AlertedMonitor;
}

/** The ids of an incident about to open: the store's id (reserved ahead) and its public id. */
export interface NewIncidentRef {
  readonly id: number;
  readonly publicId: string;
}

export interface DecisionContext {
  readonly state: AlertState;
  readonly incident: Incident | null;
  readonly monitor: AlertedMonitor;
  readonly location: string;
  readonly result: CheckObservation;
}

/**
 * What the decisions of one batch change, in decision order: incidents opened and resolved,
 * timeline entries, events, and the incidents to route. Pure: the ids of the incidents it opens are
 * handed in (`take`), and the time of the changes is `now`.
 */
export class AlertEffects {
  readonly opened: Incident[] = [];
  readonly resolved: Incident[] = [];
  readonly timeline: TimelineEntry[] = [];
  readonly events: AlertEvent[] = [];
  readonly routedOpenings: IncidentOfMonitor[] = [];
  readonly routedResolutions: IncidentOfMonitor[] = [];

  constructor(private readonly now: Date) {}

  /**
   * Carries out one decision of the rules; answers the monitor's open incident after it. An `open`
   * takes the ids of its incident from `ref`.
   */
  carryOut(decision: AlertDecision, ctx: DecisionContext, ref: () => NewIncidentRef): Incident | null {
    const at = ctx.result.checkedAt;
    switch (decision.kind) {
      case 'open':
        return this.open(decision.startedAt, decision.failingLocations, ctx, ref());
      case 'locationReport':
        if (ctx.incident) this.timeline.push(report(ctx.incident.id, ctx.location, ctx));
        return ctx.incident;
      case 'remind':
        if (!ctx.incident) return null;
        this.timeline.push(new TimelineEntry({ incidentId: ctx.incident.id, kind: 'reminder', at }));
        this.events.push(
          eventOf('reminderDue', ctx, ctx.incident, `${ctx.monitor.name} is still down`, { startedAt: ctx.incident.startedAt }),
        );
        return ctx.incident;
      case 'resolve':
        if (!ctx.incident) return null;
        ctx.incident.resolve({ userId: null, automatic: true }, at, this.now);
        this.resolved.push(ctx.incident);
        this.timeline.push(
          new TimelineEntry({ incidentId: ctx.incident.id, kind: 'resolved', at, location: ctx.location, status: ctx.result.status }),
        );
        this.events.push(
          eventOf('incidentResolved', ctx, ctx.incident, `${ctx.monitor.name} recovered`, {
            startedAt: ctx.incident.startedAt,
            resolvedAt: at,
            durationSeconds: Math.round((at.getTime() - ctx.incident.startedAt.getTime()) / 1000),
          }),
        );
        this.routedResolutions.push({ incident: ctx.incident, monitor: ctx.monitor });
        return null;
      case 'sslExpiryReminder':
      case 'sslExpired':
      case 'dnsblReminder':
        this.events.push(
          eventOf(decision.kind, ctx, null, `${ctx.monitor.name}: ${CONDITION_SUMMARY[decision.kind]}`, {
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

  /**
   * The roots opened in this batch that hold failing monitors back (dependencyDown): their opening
   * message tells how many (`affectedMonitors`), so one message stands for the root and its dependents.
   */
  tellAffected(heldCounts: ReadonlyMap<number, number>): void {
    this.events.forEach((event, k) => {
      const count = event.kind === 'incidentOpened' ? (heldCounts.get(event.monitorId) ?? 0) : 0;
      if (count === 0) return;
      const what = count === 1 ? '1 monitor depending on it is affected' : `${count} monitors depending on it are affected`;
      this.events[k] = { ...event, summary: `${event.summary}; ${what}`, data: { ...event.data, affectedMonitors: count } };
    });
  }

  /** The resolutions of incidents that were open before the batch (one opened and resolved within it is inserted resolved). */
  get resolvedBefore(): Incident[] {
    const opened = new Set(this.opened);
    return this.resolved.filter((incident) => !opened.has(incident));
  }

  private open(startedAt: Date, failingLocations: readonly string[], ctx: DecisionContext, ref: NewIncidentRef): Incident {
    const { result, monitor } = ctx;
    const incident = new Incident({
      id: ref.id,
      publicId: ref.publicId,
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
      now: this.now,
    });
    this.opened.push(incident);
    ctx.state.incidentOpened(incident.id, result.checkedAt);
    this.timeline.push(
      new TimelineEntry({
        incidentId: incident.id,
        kind: 'opened',
        at: result.checkedAt,
        reasonCode: result.reasonCode,
        message: result.message,
      }),
      ...failingLocations.map((code) => report(incident.id, code, ctx)),
    );
    this.events.push(
      eventOf('incidentOpened', ctx, incident, `${monitor.name} is down`, {
        startedAt,
        failingLocations,
        reasonCode: result.reasonCode,
        message: result.message,
      }),
    );
    this.routedOpenings.push({ incident, monitor });
    return incident;
  }
}

function report(incidentId: number, code: string, ctx: DecisionContext): TimelineEntry {
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

function eventOf(
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
