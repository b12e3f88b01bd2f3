import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { ImRoutingSettings, MonitorRoutingContext, RoutedMonitor } from '../../application/incident-management/ports';
import type { ImRoutingSetting } from '../../domain/incident-management/monitor-routing';
import type { SqlRunner } from '../persistence/database';
import { refFilter } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';

interface SettingRow {
  enabled: boolean;
  team_id: string | null;
  escalation_policy_id: string | null;
}

const settingOf = (row: SettingRow | undefined): ImRoutingSetting | null =>
  row ? { enabled: row.enabled, teamId: row.team_id, escalationPolicyId: row.escalation_policy_id } : null;

/** IM routing settings in im_customer_routing and im_monitor_routing, on the current unit of work. */
export class SqlImRoutingSettings implements ImRoutingSettings {
  constructor(private readonly sql: SqlRunner) {}

  async findMonitor(organizationId: number, ref: string): Promise<RoutedMonitor | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const [column, value] = 'id' in filter ? ['id', filter.id] : ['public_id', filter.publicId];
    const rows = await this.sql.query<{ id: string; public_id: string; customer_id: number }>(
      sql`SELECT id, public_id, customer_id FROM monitors WHERE organization_id = ${organizationId} AND ${raw(column)} = ${value}`,
    );
    const row = rows[0];
    return row ? { monitorId: Number(row.id), publicId: row.public_id, customerId: Number(row.customer_id) } : null;
  }

  async customer(organizationId: number, customerId: number): Promise<ImRoutingSetting | null> {
    const rows = await this.sql.query<SettingRow>(
      sql`SELECT enabled, team_id, escalation_policy_id FROM im_customer_routing WHERE organization_id = ${organizationId} AND customer_id = ${customerId}`,
    );
    return settingOf(rows[0]);
  }

  async monitor(organizationId: number, monitorId: number): Promise<ImRoutingSetting | null> {
    const rows = await this.sql.query<SettingRow>(
      sql`SELECT enabled, team_id, escalation_policy_id FROM im_monitor_routing WHERE organization_id = ${organizationId} AND monitor_id = ${monitorId}`,
    );
    return settingOf(rows[0]);
  }

  async setCustomer(organizationId: number, customerId: number, setting: ImRoutingSetting, now: Date, tx: Transaction): Promise<void> {
    await sqlOf(tx)
      .query(sql`INSERT INTO im_customer_routing (customer_id, organization_id, enabled, team_id, escalation_policy_id, updated_at)
       SELECT id, organization_id, ${setting.enabled}, ${setting.teamId}, ${setting.escalationPolicyId}, ${now} FROM customers WHERE id = ${customerId} AND organization_id = ${organizationId}
       ON CONFLICT (customer_id) DO UPDATE SET enabled = EXCLUDED.enabled, team_id = EXCLUDED.team_id,
         escalation_policy_id = EXCLUDED.escalation_policy_id, updated_at = EXCLUDED.updated_at`);
  }

  async setMonitor(organizationId: number, monitorId: number, setting: ImRoutingSetting | null, now: Date, tx: Transaction): Promise<void> {
    const on = sqlOf(tx);
    if (setting === null) {
      await on.query(sql`DELETE FROM im_monitor_routing WHERE organization_id = ${organizationId} AND monitor_id = ${monitorId}`);
      return;
    }
    await on.query(sql`INSERT INTO im_monitor_routing (monitor_id, organization_id, enabled, team_id, escalation_policy_id, updated_at)
       SELECT id, organization_id, ${setting.enabled}, ${setting.teamId}, ${setting.escalationPolicyId}, ${now} FROM monitors WHERE id = ${monitorId} AND organization_id = ${organizationId}
       ON CONFLICT (monitor_id) DO UPDATE SET enabled = EXCLUDED.enabled, team_id = EXCLUDED.team_id,
         escalation_policy_id = EXCLUDED.escalation_policy_id, updated_at = EXCLUDED.updated_at`);
  }

  forMonitorsIn(monitorIds: readonly number[], tx: Transaction): Promise<Map<number, MonitorRoutingContext>> {
    return this.forMonitors(monitorIds, sqlOf(tx));
  }

  async forMonitors(monitorIds: readonly number[], on: SqlRunner = this.sql): Promise<Map<number, MonitorRoutingContext>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await on.query<{
      monitor_id: string;
      im_enabled: boolean;
      c_enabled: boolean | null;
      c_team: string | null;
      c_policy: string | null;
      m_enabled: boolean | null;
      m_team: string | null;
      m_policy: string | null;
    }>(sql`SELECT m.id AS monitor_id, o.incident_management_enabled AS im_enabled,
              c.enabled AS c_enabled, c.team_id AS c_team, c.escalation_policy_id AS c_policy,
              r.enabled AS m_enabled, r.team_id AS m_team, r.escalation_policy_id AS m_policy
         FROM monitors m
         JOIN organizations o ON o.id = m.organization_id
         LEFT JOIN im_customer_routing c ON c.customer_id = m.customer_id
         LEFT JOIN im_monitor_routing r ON r.monitor_id = m.id
        WHERE m.id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(monitorIds)])}::jsonb)::bigint)`);
    return new Map(
      rows.map((row) => [
        Number(row.monitor_id),
        {
          imEnabled: row.im_enabled,
          customer: row.c_enabled === null ? null : { enabled: row.c_enabled, teamId: row.c_team, escalationPolicyId: row.c_policy },
          monitor: row.m_enabled === null ? null : { enabled: row.m_enabled, teamId: row.m_team, escalationPolicyId: row.m_policy },
        },
      ]),
    );
  }
}
