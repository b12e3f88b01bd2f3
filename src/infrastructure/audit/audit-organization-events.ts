import type { MonitorStateEvent, OrganizationEvents } from '../../application/incidents/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

/**
 * The organization's event feed is its audit log: what the service itself decided about a monitor
 * (it became unknown because too few of its locations are live, or known again) is a system entry
 * (actor type `system`, no user, no request) on the monitor, with the state and the silent
 * locations before and after, in the transaction that stored the change.
 */
export class AuditOrganizationEvents implements OrganizationEvents {
  constructor(private readonly tx: SqlRunner) {}

  async monitorStateChanged(events: readonly MonitorStateEvent[], tx: Transaction): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((e) => ({
      organizationId: e.organizationId,
      customerId: e.customerId,
      resourceId: e.monitorPublicId,
      action: e.action,
      changes: {
        state: { before: e.before.status, after: e.after.status },
        silentLocations: { before: e.before.silentLocations, after: e.after.silentLocations },
      },
    }));
    await sqlOf(tx).query(sql`
      INSERT INTO audit_log (organization_id, customer_id, actor_type, actor_label, resource_type, resource_id, action, changes)
      SELECT (e->>'organizationId')::integer, (e->>'customerId')::integer, 'system', 'system', 'monitor', e->>'resourceId', e->>'action', e->'changes'
        FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS r(e, n) ORDER BY n`);
  }
}
