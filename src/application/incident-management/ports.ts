import type { ImIncident, ImIncidentStatus, ImTimelineEntry } from '../../domain/incident-management/im-incident';
import type { TenantScope } from '../../domain/shared/tenant-scope';

export interface ImIncidentFilter {
  readonly statuses?: readonly ImIncidentStatus[];
  readonly teamId?: string;
  readonly customerId?: number;
  /** Created at or after. */
  readonly since?: Date;
  /** Created before. */
  readonly until?: Date;
}

export interface ImPage {
  readonly page: number;
  readonly perPage: number;
}

/** A timeline entry as stored (with its position in the incident's history). */
export interface StoredImTimelineEntry extends ImTimelineEntry {
  readonly id: number;
}

/**
 * IM incidents of one organization. Out of scope reads answer null (the use case turns it into
 * imIncidentNotFound). `save` is optimistic: a version that moved meanwhile throws
 * imIncidentStatusConflict; it writes the incident's pending timeline entries with the change.
 */
export interface ImIncidentRepository {
  add(scope: TenantScope, incident: ImIncident): Promise<ImIncident>;
  findByRef(scope: TenantScope, ref: string): Promise<ImIncident | null>;
  findOpenByDedupKey(scope: TenantScope, dedupKey: string): Promise<ImIncident | null>;
  list(scope: TenantScope, filter: ImIncidentFilter, page: ImPage): Promise<{ items: ImIncident[]; total: number }>;
  save(scope: TenantScope, incident: ImIncident): Promise<void>;
  timeline(scope: TenantScope, incident: ImIncident): Promise<StoredImTimelineEntry[]>;
  /**
   * The one statement of a trigger event: opens `candidate`, or, when an open incident of the
   * organization already has its dedup key, adds an occurrence to that one. Never two open incidents
   * for one key, however many triggers race. Writes the timeline entry of whichever happened.
   */
  triggerOrOccur(scope: TenantScope, candidate: ImIncident, occurrence: Record<string, unknown>): Promise<{ incident: ImIncident; created: boolean }>;
}
export const IM_INCIDENT_REPOSITORY = Symbol.for('ImIncidentRepository');

/**
 * Teams of incident management (owned by the teams and on-call context): whether a team of the
 * organization exists, and whether a user is one of its members.
 */
export interface ImTeamDirectory {
  exists(organizationId: number, teamId: string): Promise<boolean>;
  isMember(organizationId: number, teamId: string, userId: string): Promise<boolean>;
}
export const IM_TEAM_DIRECTORY = Symbol.for('ImTeamDirectory');

/** Escalation policies (owned by the escalation context): whether one of the organization exists. */
export interface EscalationPolicyDirectory {
  exists(organizationId: number, policyId: string): Promise<boolean>;
}
export const ESCALATION_POLICY_DIRECTORY = Symbol.for('EscalationPolicyDirectory');

/** Customers as IM names them: by integer id or public id; null when not one of the organization's. */
export interface ImCustomerDirectory {
  resolve(organizationId: number, ref: number | string): Promise<number | null>;
}
export const IM_CUSTOMER_DIRECTORY = Symbol.for('ImCustomerDirectory');
