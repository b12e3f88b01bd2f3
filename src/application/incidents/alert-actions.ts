import type { AlertDecision } from '../../domain/incidents/alert-decision';
import type { AlertEvent, AlertEventKind } from '../../domain/incidents/alert-event';
import type { AlertState } from '../../domain/incidents/alert-state';
import { Incident } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { CheckObservation } from '../../domain/results/check-status';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { MonitorRef } from '../results/ports';
import { NO_INCIDENT_ROUTING, type IncidentEvents, type IncidentRepository, type IncidentRouting } from './ports';

const CONDITION_SUMMARY = {
  sslExpiryReminder: 'certificate expires soon', sslExpired: 'certificate expired', dnsblReminder: 'address is on a blocklist',
} as const;

export interface DecisionContext {
  readonly state: AlertState;
  readonly incident: Incident | null;
  readonly monitor: MonitorRef;
  readonly location: string;
  readonly result: CheckObservation;
}

/** Carries out the alert rules' decisions: incidents, their timeline, and the domain events. */
export class AlertActions {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly events: IncidentEvents,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly routing: IncidentRouting = NO_INCIDENT_ROUTING,
  ) {}

  /** Answers the monitor's open incident after the decision. */
  async carryOut(decision: AlertDecision, ctx: DecisionContext): Promise<Incident | null> {
    const at = ctx.result.checkedAt;
    switch (decision.kind) {
      case 'open':
        return this.open(decision.startedAt, decision.failingLocations, ctx);
      case 'locationReport':
        if (ctx.incident) await this.incidents.addTimeline([this.report(ctx.incident.id, ctx.location, ctx)]);
        return ctx.incident;
      case 'remind':
        if (!ctx.incident) return null;
        await this.incidents.addTimeline([new TimelineEntry({ incidentId: ctx.incident.id, kind: 'reminder', at })]);
        await this.publish('reminderDue', ctx, ctx.incident, `${ctx.monitor.name} is still down`, { startedAt: ctx.incident.startedAt });
        return ctx.incident;
      case 'resolve':
        if (!ctx.incident) return null;
        ctx.incident.resolve({ userId: null, automatic: true }, at, this.clock.now());
        await this.incidents.save(ctx.incident);
        await this.incidents.addTimeline([new TimelineEntry({
          incidentId: ctx.incident.id, kind: 'resolved', at, location: ctx.location, status: ctx.result.status,
        })]);
        await this.publish('incidentResolved', ctx, ctx.incident, `${ctx.monitor.name} recovered`, {
          startedAt: ctx.incident.startedAt, resolvedAt: at,
          durationSeconds: Math.round((at.getTime() - ctx.incident.startedAt.getTime()) / 1000),
        });
        await this.routing.resolved(ctx.incident, ctx.monitor);
        return null;
      case 'sslExpiryReminder':
      case 'sslExpired':
      case 'dnsblReminder': {
        const what = CONDITION_SUMMARY[decision.kind];
        await this.publish(decision.kind, ctx, null, `${ctx.monitor.name}: ${what}`, {
          since: decision.since, first: decision.first, reasonCode: ctx.result.reasonCode, message: ctx.result.message,
          evidence: ctx.result.evidence,
        });
        return ctx.incident;
      }
    }
  }

  private async open(startedAt: Date, failingLocations: readonly string[], ctx: DecisionContext): Promise<Incident> {
    const { result, monitor } = ctx;
    const incident = await this.incidents.add(new Incident({
      publicId: this.ids.uuid(), organizationId: ctx.state.organizationId, customerId: ctx.state.customerId,
      monitorId: monitor.monitorId, origin: 'automatic', title: `${monitor.name} is down`, description: null,
      causeReasonCode: result.reasonCode, causeMessage: result.message, startedAt, createdByUserId: null, now: this.clock.now(),
    }));
    ctx.state.incidentOpened(incident.id, result.checkedAt);
    await this.incidents.addTimeline([
      new TimelineEntry({ incidentId: incident.id, kind: 'opened', at: result.checkedAt, reasonCode: result.reasonCode, message: result.message }),
      ...failingLocations.map((code) => this.report(incident.id, code, ctx)),
    ]);
    await this.publish('incidentOpened', ctx, incident, `${monitor.name} is down`, {
      startedAt, failingLocations, reasonCode: result.reasonCode, message: result.message,
    });
    await this.routing.opened(incident, monitor);
    return incident;
  }

  private report(incidentId: number, code: string, ctx: DecisionContext): TimelineEntry {
    const seen = ctx.state.location(code);
    const own = code === ctx.location;
    return new TimelineEntry({
      incidentId, kind: 'locationReport', at: own ? ctx.result.checkedAt : (seen?.lastCheckedAt ?? ctx.result.checkedAt),
      location: code, status: seen?.status ?? ctx.result.status, reasonCode: seen?.reasonCode ?? null,
      message: own ? ctx.result.message : null,
    });
  }

  private publish(kind: AlertEventKind, ctx: DecisionContext, incident: Incident | null, summary: string, data: Record<string, unknown>) {
    const event: AlertEvent = {
      kind, organizationId: ctx.state.organizationId, customerId: ctx.state.customerId, monitorId: ctx.monitor.monitorId,
      incidentPublicId: incident?.publicId ?? null, occurredAt: ctx.result.checkedAt, summary,
      data: { monitorPublicId: ctx.monitor.publicId, location: ctx.location, ...data },
    };
    return this.events.publish(event);
  }
}
