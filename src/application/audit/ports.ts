import type { AuditActorType, AuditEntry } from '../../domain/audit/audit-entry';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

/** An entry a use case appends itself (events the database trigger cannot see: sign-ins, MCP tool calls). */
export interface ExplicitAuditEntry {
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly actorType: AuditActorType;
  readonly userId: string | null;
  readonly actorLabel: string | null;
  readonly credentialType: string | null;
  /** The API or agent token's id (never a session's: its id is a secret). */
  readonly credentialId?: string | null;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly action: 'signedIn' | 'signInFailed' | 'toolCalled' | 'accepted';
}

/**
 * Appends entries in the caller's transaction (`tx`, so an entry commits with its change). Changes
 * to audited tables are recorded by the database itself; this is for events that change no
 * audited row. The request's address and id are added by the adapter.
 */
export interface AuditTrail {
  append(entry: ExplicitAuditEntry, tx: Transaction): Promise<void>;
}
export const AUDIT_TRAIL = token<AuditTrail>('AuditTrail');

export interface AuditLogFilter {
  readonly actor?: string;
  readonly resourceType?: string;
  readonly resourceId?: string;
  readonly action?: string;
  readonly from?: Date;
  readonly to?: Date;
}

export interface AuditLogPage {
  readonly items: AuditEntry[];
  readonly total: number;
}

/** Reads the log within a tenant scope (customer-bound scopes see their customer's entries only). */
export interface AuditLogReader {
  list(scope: TenantScope, filter: AuditLogFilter, page: { page: number; perPage: number }): Promise<AuditLogPage>;
  /** Every entry of an organization, oldest first, a batch at a time (the data export). */
  forEach(organizationId: number, batch: (entries: AuditEntry[]) => Promise<void>): Promise<void>;
  /**
   * Deletes entries older than the cutoff; answers how many. It stands alone on the pool, with no
   * tx: one statement, run by the retention job, with no other write to join.
   */
  purgeBefore(cutoff: Date): Promise<number>;
}
export const AUDIT_LOG_READER = token<AuditLogReader>('AuditLogReader');
