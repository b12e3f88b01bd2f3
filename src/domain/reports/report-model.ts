import { asPercent, hundredthsOfPercent } from '../results/percent-shares';
import type { UptimeFigures } from '../results/uptime-figures';

/** An incident of a monitor that overlapped the period. */
export interface ReportIncidentInput {
  readonly title: string;
  readonly causeReasonCode: string | null;
  readonly causeMessage: string | null;
  readonly startedAt: Date;
  readonly resolvedAt: Date | null;
}

/** One monitor's figures over the period, as the results context computes them. */
export interface ReportMonitorInput {
  /** Ties the monitor to the objectives covering it (their incidents are its incidents). */
  readonly monitorId?: number;
  readonly name: string;
  readonly customerName: string;
  readonly figures: UptimeFigures;
  readonly incidents: readonly ReportIncidentInput[];
}

export interface ReportIncident {
  readonly title: string;
  /** The reason code and message of the failure that opened it, or "declared manually". */
  readonly cause: string;
  readonly startedAt: Date;
  /** null while still open at the end of the period. */
  readonly resolvedAt: Date | null;
  /** The part of the incident inside the period. */
  readonly durationSeconds: number;
}

export type SlaVerdict = 'met' | 'missed' | 'unknown';

/** A service level objective measured over the period, as the service-levels context computes it. */
export interface ReportObjectiveInput {
  readonly name: string;
  readonly target: number;
  readonly attainmentPercent: number | null;
  readonly met: boolean | null;
  readonly budgetLeftPercent: number | null;
  readonly budgetLeftMinutes: number;
  readonly spentMinutes: number;
  readonly unknownPercent: number | null;
  /** The monitors it covers. */
  readonly monitorIds: readonly number[];
}

/** An objective in the report, with the incidents of its monitors that spent its budget, longest first. */
export interface ReportObjective extends Omit<ReportObjectiveInput, 'monitorIds'> {
  readonly incidents: readonly (ReportIncident & { readonly monitorName: string })[];
}

export interface ReportMonitor {
  readonly name: string;
  readonly customerName: string;
  /** Shares of the whole period (they add up to 100): up (incl. degraded), down, unknown. */
  readonly uptimePercent: number | null;
  readonly downtimePercent: number | null;
  readonly degradedPercent: number | null;
  readonly unknownPercent: number | null;
  /** Uptime of the time something was observed: what the SLA and the threshold are judged on. */
  readonly uptimeOfKnownPercent: number | null;
  readonly downtimeSeconds: number;
  readonly unknownSeconds: number;
  readonly sla: SlaVerdict;
  readonly responseTime: UptimeFigures['responseTime'];
  readonly incidents: readonly ReportIncident[];
}

/** What a report says: pure data, rendered by whichever renderer the host has. */
export interface ReportModel {
  readonly title: string;
  readonly organizationName: string;
  readonly period: { readonly from: Date; readonly to: Date };
  readonly timezone: string;
  readonly slaTarget: number;
  readonly generatedAt: Date;
  readonly summary: {
    readonly monitors: number;
    /** Up of observed time over every monitor together, time-weighted. */
    readonly uptimeOfKnownPercent: number | null;
    /** Unobserved share of all the monitors' expected time. */
    readonly unknownPercent: number | null;
    readonly downtimeSeconds: number;
    readonly incidents: number;
    readonly slaMet: number;
    readonly slaMissed: number;
    readonly slaUnknown: number;
  };
  readonly monitors: readonly ReportMonitor[];
  /** Service level objectives covering the report's monitors (none when the organization has none). */
  readonly objectives: readonly ReportObjective[];
  /** The lowest uptime of observed time among the monitors (null when nothing was observed): the threshold's input. */
  readonly lowestUptime: number | null;
}

export interface ReportModelInput {
  readonly title: string;
  readonly organizationName: string;
  readonly period: { readonly from: Date; readonly to: Date };
  readonly timezone: string;
  readonly slaTarget: number;
  readonly generatedAt: Date;
  readonly monitors: readonly ReportMonitorInput[];
  readonly objectives?: readonly ReportObjectiveInput[];
}

function causeOf(incident: ReportIncidentInput): string {
  if (!incident.causeReasonCode && !incident.causeMessage) return 'declared manually';
  return [incident.causeReasonCode, incident.causeMessage].filter(Boolean).join(': ');
}

function verdict(uptimeOfKnown: number | null, target: number): SlaVerdict {
  if (uptimeOfKnown === null) return 'unknown';
  return uptimeOfKnown >= target ? 'met' : 'missed';
}

/**
 * Builds what the report says from the figures of each monitor. Time nobody observed is reported as
 * unknown, never as up: the SLA is judged on observed time, and the unknown share stands beside it so
 * a reader sees how much the verdict rests on. Monitors are listed worst first, then by name.
 */
export function buildReportModel(input: ReportModelInput): ReportModel {
  const periodStart = input.period.from.getTime();
  const periodEnd = input.period.to.getTime();
  const byMonitor = new Map<number, { name: string; incidents: ReportIncident[] }>();
  const monitors: ReportMonitor[] = input.monitors.map((m) => {
    const incidents = [...m.incidents]
      .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())
      .map((i) => {
        const start = Math.max(periodStart, i.startedAt.getTime());
        const end = Math.min(periodEnd, i.resolvedAt?.getTime() ?? periodEnd);
        return {
          title: i.title,
          cause: causeOf(i),
          startedAt: i.startedAt,
          resolvedAt: i.resolvedAt,
          durationSeconds: Math.max(0, Math.round((end - start) / 1000)),
        };
      });
    if (m.monitorId !== undefined) byMonitor.set(m.monitorId, { name: m.name, incidents });
    return {
      name: m.name,
      customerName: m.customerName,
      uptimePercent: m.figures.uptimePercent,
      downtimePercent: m.figures.downtimePercent,
      degradedPercent: m.figures.degradedPercent,
      unknownPercent: m.figures.unknownPercent,
      uptimeOfKnownPercent: m.figures.uptimeOfKnownPercent,
      downtimeSeconds: m.figures.downSeconds,
      unknownSeconds: m.figures.unknownSeconds,
      sla: verdict(m.figures.uptimeOfKnownPercent, input.slaTarget),
      responseTime: m.figures.responseTime,
      incidents,
    };
  });
  monitors.sort((a, b) => (a.uptimeOfKnownPercent ?? 101) - (b.uptimeOfKnownPercent ?? 101) || a.name.localeCompare(b.name));
  const sum = (pick: (f: UptimeFigures) => number) => input.monitors.reduce((total, m) => total + pick(m.figures), 0);
  const up = sum((f) => f.upSeconds + f.degradedSeconds);
  const down = sum((f) => f.downSeconds);
  const unknown = sum((f) => f.unknownSeconds);
  const ofKnown = hundredthsOfPercent([up, down]);
  const ofAll = hundredthsOfPercent([up + down, unknown]);
  const known = monitors.map((m) => m.uptimeOfKnownPercent).filter((v): v is number => v !== null);
  return {
    title: input.title,
    organizationName: input.organizationName,
    period: input.period,
    timezone: input.timezone,
    slaTarget: input.slaTarget,
    generatedAt: input.generatedAt,
    summary: {
      monitors: monitors.length,
      uptimeOfKnownPercent: ofKnown && asPercent(ofKnown[0]!),
      unknownPercent: ofAll && asPercent(ofAll[1]!),
      downtimeSeconds: down,
      incidents: monitors.reduce((n, m) => n + m.incidents.length, 0),
      slaMet: monitors.filter((m) => m.sla === 'met').length,
      slaMissed: monitors.filter((m) => m.sla === 'missed').length,
      slaUnknown: monitors.filter((m) => m.sla === 'unknown').length,
    },
    monitors,
    objectives: (input.objectives ?? []).map(({ monitorIds, ...o }) => ({
      ...o,
      incidents: monitorIds
        .flatMap((id) => (byMonitor.get(id)?.incidents ?? []).map((i) => ({ ...i, monitorName: byMonitor.get(id)!.name })))
        .sort((a, b) => b.durationSeconds - a.durationSeconds || a.startedAt.getTime() - b.startedAt.getTime()),
    })),
    lowestUptime: known.length > 0 ? Math.min(...known) : null,
  };
}
