import type {
  EscalationPolicyDirectory,
  ImCustomerDirectory,
  ImResponder,
  ImResponderDirectory,
  ImTeamDirectory,
} from '../../application/incident-management/ports';
import { IM_USER_ROLES } from '../../domain/incident-management/im-incident';
import type { SqlRunner } from '../persistence/database';
import { refFilter } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

/**
 * Teams as the teams context stores them (`im_teams (organization_id, id)`). Ids are compared as
 * text, so the reference holds whatever key type that context chose. Membership is read from
 * `im_team_members (team_id, user_id)` when that table exists; until the teams context creates it,
 * nobody is a member of anything (and only admins act on team incidents).
 */
export class SqlImTeamDirectory implements ImTeamDirectory {
  constructor(private readonly sql: SqlRunner) {}

  async exists(organizationId: number, teamId: string): Promise<boolean> {
    const rows = await this.sql.query(sql`SELECT 1 FROM im_teams WHERE organization_id = ${organizationId} AND id::text = ${teamId}`);
    return rows.length > 0;
  }

  isMemberIn(organizationId: number, teamId: string, userId: string, tx: Transaction): Promise<boolean> {
    return this.isMember(organizationId, teamId, userId, sqlOf(tx));
  }

  async isMember(organizationId: number, teamId: string, userId: string, on: SqlRunner = this.sql): Promise<boolean> {
    const [probe] = await on.query<{ present: boolean }>(sql`SELECT to_regclass('im_team_members') IS NOT NULL AS present`);
    if (!probe?.present) return false;
    const rows = await on.query(sql`SELECT 1 FROM im_team_members m JOIN im_teams t ON t.id::text = m.team_id::text
        WHERE t.organization_id = ${organizationId} AND t.id::text = ${teamId} AND m.user_id::text = ${userId}`);
    return rows.length > 0;
  }

  isTeamAdminIn(organizationId: number, teamId: string, userId: string, tx: Transaction): Promise<boolean> {
    return this.isTeamAdmin(organizationId, teamId, userId, sqlOf(tx));
  }

  async isTeamAdmin(organizationId: number, teamId: string, userId: string, on: SqlRunner = this.sql): Promise<boolean> {
    const rows = await on.query(sql`SELECT 1 FROM im_team_members m JOIN im_teams t ON t.id::text = m.team_id::text
        WHERE t.organization_id = ${organizationId} AND t.id::text = ${teamId} AND m.user_id::text = ${userId} AND m.im_role = 'admin'`);
    return rows.length > 0;
  }
}

/** Users as the identity context stores them, seen as IM responders. */
export class SqlImResponderDirectory implements ImResponderDirectory {
  constructor(private readonly sql: SqlRunner) {}

  eligibleIn(organizationId: number, userId: string, tx: Transaction): Promise<ImResponder | null> {
    return this.eligible(organizationId, userId, sqlOf(tx));
  }

  async eligible(organizationId: number, userId: string, on: SqlRunner = this.sql): Promise<ImResponder | null> {
    const rows = await on.query<{ name: string; email: string }>(sql`SELECT name, email FROM users
        WHERE organization_id = ${organizationId} AND id::text = ${userId} AND is_active AND customer_id IS NULL AND NOT is_global_supporter
          AND role = ANY(${[...IM_USER_ROLES]}::text[])`);
    return rows[0] ? { name: rows[0].name, email: rows[0].email } : null;
  }
}

/** Escalation policies as the escalation context stores them (`escalation_policies (organization_id, id)`). */
export class SqlEscalationPolicyDirectory implements EscalationPolicyDirectory {
  constructor(private readonly sql: SqlRunner) {}

  async exists(organizationId: number, policyId: string): Promise<boolean> {
    const rows = await this.sql.query(
      sql`SELECT 1 FROM escalation_policies WHERE organization_id = ${organizationId} AND id::text = ${policyId}`,
    );
    return rows.length > 0;
  }
}

/** Customers of the organization by integer id or public id. */
export class SqlImCustomerDirectory implements ImCustomerDirectory {
  constructor(private readonly sql: SqlRunner) {}

  async resolve(organizationId: number, ref: number | string): Promise<number | null> {
    const filter = refFilter(ref);
    if (!filter) return null;
    const [column, value] = 'id' in filter ? ['id', filter.id] : ['public_id', filter.publicId];
    const rows = await this.sql.query<{ id: number }>(
      sql`SELECT id FROM customers WHERE organization_id = ${organizationId} AND ${raw(column)} = ${value}`,
    );
    return rows[0] ? Number(rows[0].id) : null;
  }
}
