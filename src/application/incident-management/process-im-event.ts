import { isAppError } from '../../domain/shared/app-error';
import { ImIncident, type ImSeverity } from '../../domain/incident-management/im-incident';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { ImIncidentRepository } from './ports';
import type { AlertRouting } from '../../domain/incident-management/alert-source';

/** An event from an integration, in the PagerDuty Events v2 sense, already validated. */
export interface ImEvent {
  readonly action: 'trigger' | 'acknowledge' | 'resolve';
  /** Required to acknowledge or resolve; a trigger without one gets a fresh key. */
  readonly dedupKey?: string;
  readonly summary?: string;
  readonly severity?: ImSeverity;
  readonly source?: string;
  /** Where a new incident goes (alert sources route theirs); none by default. */
  readonly routing?: AlertRouting;
  /** What the timeline keeps of the event (its payload and envelope fields). */
  readonly details: Readonly<Record<string, unknown>>;
}

export type ImEventOutcome = 'created' | 'occurrence' | 'acknowledged' | 'resolved' | 'ignored';

/** The incident a trigger event opens when no open one has its dedup key (title, severity, source and routing from the event). */
export function incidentTriggeredBy(event: ImEvent, scope: TenantScope, at: { publicId: string; dedupKey: string; now: Date }): ImIncident {
  return ImIncident.trigger(
    {
      publicId: at.publicId,
      organizationId: scope.organizationId,
      title: event.summary ?? at.dedupKey,
      description: null,
      severity: event.severity ?? 'critical',
      source: event.source ?? null,
      teamId: event.routing?.teamId ?? null,
      customerId: event.routing?.customerId ?? null,
      escalationPolicyId: event.routing?.escalationPolicyId ?? null,
      dedupKey: at.dedupKey,
      createdByUserId: null,
      now: at.now,
    },
    { event: event.details },
  );
}

export interface ProcessedImEvent {
  readonly dedupKey: string;
  readonly outcome: ImEventOutcome;
  readonly incidentId: string | null;
}

/** A lost race with a person acting on the incident is retried this many times (events are machine-sent). */
const ATTEMPTS = 3;

/**
 * Applies one event to the organization's incidents and answers once it is committed. A trigger
 * opens an incident or adds an occurrence to the open one with its key (one statement decides,
 * so concurrent duplicates never open two); acknowledge and resolve act on the open incident with
 * the key, and are ignored, as PagerDuty does, when there is none or it is already in that state.
 */
export class ProcessImEvent {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly transactions: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(scope: TenantScope, event: ImEvent): Promise<ProcessedImEvent> {
    if (event.action === 'trigger') return this.trigger(scope, event);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactions.run(() => this.settle(scope, event));
      } catch (error) {
        if (!(isAppError(error) && error.code === 'imIncidentStatusConflict') || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  private async trigger(scope: TenantScope, event: ImEvent): Promise<ProcessedImEvent> {
    const dedupKey = event.dedupKey ?? this.ids.uuid();
    const candidate = incidentTriggeredBy(event, scope, { publicId: this.ids.uuid(), dedupKey, now: this.clock.now() });
    // One atomic statement: a transaction around it would only add its BEGIN and COMMIT round trips.
    const { incident, created } = await this.incidents.triggerOrOccur(scope, candidate, { event: event.details });
    return { dedupKey, outcome: created ? 'created' : 'occurrence', incidentId: incident.publicId };
  }

  private async settle(scope: TenantScope, event: ImEvent & { dedupKey?: string }): Promise<ProcessedImEvent> {
    const dedupKey = event.dedupKey!;
    const incident = await this.incidents.findOpenByDedupKey(scope, dedupKey);
    if (!incident) return { dedupKey, outcome: 'ignored', incidentId: null };
    const now = this.clock.now();
    if (event.action === 'acknowledge') {
      if (incident.status === 'acknowledged') return { dedupKey, outcome: 'ignored', incidentId: incident.publicId };
      incident.acknowledge(null, now);
    } else {
      incident.resolve(null, now, { event: event.details });
    }
    await this.incidents.save(scope, incident);
    return { dedupKey, outcome: event.action === 'acknowledge' ? 'acknowledged' : 'resolved', incidentId: incident.publicId };
  }
}
