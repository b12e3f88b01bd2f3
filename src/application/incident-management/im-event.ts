import { ImIncident, type ImSeverity } from '../../domain/incident-management/im-incident';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { AlertRouting } from '../../domain/incident-management/alert-source';

/**
 * An event from an integration, in the PagerDuty Events v2 sense, already validated. Events are
 * applied by the group committer (CommitImEvents), whichever way they come in.
 */
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

import type { ImEventOutcome } from '../../domain/incident-management/im-event-batch';

export type { ImEventOutcome };

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
