import type { ImIncident, ImMonitorOrigin } from '../../domain/incident-management/im-incident';
import { organizationScope, type TenantScope } from '../../domain/shared/tenant-scope';
import type { ImMonitorOrigins } from '../../application/incident-management/ports';
import type { SqlRunner } from '../persistence/database';
import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { COLUMNS, toIncident, type IncidentRow } from './sql-im-incident.repository';
import { raw, sql } from '../persistence/sql';

const OPEN = `status IN ('triggered', 'acknowledged')`;

/** im_incident_monitor_origins: the engine incidents each routed IM incident stands for. */
export class SqlImMonitorOrigins implements ImMonitorOrigins {
  constructor(private readonly sql: SqlRunner) {}

  async retireQuietStorm(scope: TenantScope, dedupKey: string, quietSince: Date, tx: Transaction): Promise<void> {
    // A concurrent retirement re-reads the row after the first one's update and no longer matches the key.
    await sqlOf(tx).query(
      sql`UPDATE im_incidents SET dedup_key = dedup_key || ':' || public_id
        WHERE organization_id = ${scope.organizationId} AND dedup_key = ${dedupKey} AND ${raw(OPEN)} AND last_occurrence_at < ${quietSince}`,
    );
  }

  async link(scope: TenantScope, imIncidentId: number, origin: ImMonitorOrigin, tx: Transaction): Promise<void> {
    await sqlOf(tx)
      .query(sql`INSERT INTO im_incident_monitor_origins (im_incident_id, organization_id, monitor_public_id, incident_public_id)
       VALUES (${imIncidentId}, ${scope.organizationId}, ${origin.monitorId}, ${origin.incidentId}) ON CONFLICT DO NOTHING`);
  }

  async recovered(
    scope: TenantScope,
    monitorIncidentId: string,
    at: Date,
    tx: Transaction,
  ): Promise<{ incident: ImIncident; stillDown: number } | null> {
    const rows = await sqlOf(tx).query<IncidentRow & { still_down: string }>(
      sql`WITH marked AS (
         UPDATE im_incident_monitor_origins SET recovered_at = ${at}
          WHERE organization_id = ${scope.organizationId} AND incident_public_id = ${monitorIncidentId} AND recovered_at IS NULL
            AND im_incident_id IN (SELECT id FROM im_incidents WHERE organization_id = ${scope.organizationId} AND ${raw(OPEN)})
         RETURNING im_incident_id
       )
       SELECT ${raw(
         COLUMNS.split(',')
           .map((c) => `i.${c.trim()}`)
           .join(', '),
       )},
              (SELECT count(*) FROM im_incident_monitor_origins o
                WHERE o.im_incident_id = i.id AND o.recovered_at IS NULL AND o.incident_public_id <> ${monitorIncidentId}) AS still_down
         FROM im_incidents i JOIN marked m ON m.im_incident_id = i.id`,
    );
    const row = rows[0];
    return row ? { incident: toIncident(row), stillDown: Number(row.still_down) } : null;
  }

  unrecoveredAmongIn(monitorIncidentIds: readonly string[], tx: Transaction): Promise<Set<string>> {
    return this.unrecoveredAmong(monitorIncidentIds, sqlOf(tx));
  }

  async unrecoveredAmong(monitorIncidentIds: readonly string[], on: SqlRunner = this.sql): Promise<Set<string>> {
    if (monitorIncidentIds.length === 0) return new Set();
    const rows = await on.query<{
      incident_public_id: string;
    }>(sql`SELECT DISTINCT incident_public_id FROM im_incident_monitor_origins
        WHERE recovered_at IS NULL AND incident_public_id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(monitorIncidentIds)])}::jsonb)::uuid)`);
    return new Set(rows.map((row) => row.incident_public_id));
  }

  async unrecovered(scope: TenantScope, imIncident: ImIncident, tx: Transaction): Promise<ImMonitorOrigin[]> {
    const rows = await sqlOf(tx).query<{
      monitor_public_id: string;
      incident_public_id: string;
    }>(sql`SELECT monitor_public_id, incident_public_id FROM im_incident_monitor_origins
        WHERE organization_id = ${scope.organizationId} AND im_incident_id = ${imIncident.id} AND recovered_at IS NULL ORDER BY incident_public_id`);
    return rows.map((r) => ({ monitorId: r.monitor_public_id, incidentId: r.incident_public_id }));
  }

  allRecoveredIn(limit: number, tx: Transaction): Promise<Array<{ scope: TenantScope; incident: ImIncident }>> {
    return this.allRecovered(limit, sqlOf(tx));
  }

  async allRecovered(limit: number, on: SqlRunner = this.sql): Promise<Array<{ scope: TenantScope; incident: ImIncident }>> {
    const rows = await on.query<IncidentRow>(
      sql`SELECT ${raw(COLUMNS)} FROM im_incidents i
        WHERE ${raw(OPEN)} AND origin_incident_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM im_incident_monitor_origins o WHERE o.im_incident_id = i.id)
          AND NOT EXISTS (SELECT 1 FROM im_incident_monitor_origins o WHERE o.im_incident_id = i.id AND o.recovered_at IS NULL)
        ORDER BY id LIMIT ${limit}`,
    );
    return rows.map((row) => ({ scope: organizationScope(row.organization_id), incident: toIncident(row) }));
  }
}
