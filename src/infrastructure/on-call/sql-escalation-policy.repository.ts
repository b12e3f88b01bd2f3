import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { EscalationPolicy, type EscalationLevel } from '../../domain/on-call/escalation-policy';
import type { EscalationPolicyRepository } from '../../application/on-call/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner, UnitOfWorkSql } from '../persistence/database';
import { isUuid } from '../persistence/uuid';
import { raw, sql } from '../persistence/sql';

interface PolicyRow {
  id: string;
  organization_id: number;
  name: string;
  description: string | null;
  repeat_count: number;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
  levels: EscalationLevel[] | string;
}

const SELECT = `SELECT p.id, p.organization_id, p.name, p.description, p.repeat_count, p.created_at, p.updated_at, p.version,
    COALESCE((SELECT json_agg(json_build_object('delayMinutes', l.delay_minutes, 'targets', l.targets) ORDER BY l.position)
                FROM escalation_policy_levels l WHERE l.policy_id = p.id), '[]') AS levels
  FROM escalation_policies p`;

const toPolicy = (row: PolicyRow) =>
  new EscalationPolicy({
    id: row.id,
    organizationId: Number(row.organization_id),
    name: row.name,
    description: row.description,
    repeatCount: Number(row.repeat_count),
    levels: typeof row.levels === 'string' ? JSON.parse(row.levels) : row.levels,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    version: Number(row.version),
  });

/** Escalation policies and their levels, written together on the caller's transaction. */
export class SqlEscalationPolicyRepository implements EscalationPolicyRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(policy: EscalationPolicy, tx: Transaction): Promise<void> {
    const db = sqlOf(tx);
    await db.query(sql`INSERT INTO escalation_policies (id, organization_id, name, description, repeat_count, created_at, updated_at, version)
       VALUES (${policy.id}, ${policy.organizationId}, ${policy.name}, ${policy.description}, ${policy.repeatCount}, ${policy.createdAt}, ${policy.updatedAt}, 1)`);
    await this.writeLevels(db, policy);
  }

  findIn(organizationId: number, id: string, tx: Transaction): Promise<EscalationPolicy | null> {
    return this.find(organizationId, id, sqlOf(tx));
  }

  async find(organizationId: number, id: string, on: SqlRunner = this.sql): Promise<EscalationPolicy | null> {
    if (!isUuid(id)) return null;
    const rows = await on.query<PolicyRow>(sql`${raw(SELECT)} WHERE p.organization_id = ${organizationId} AND p.id = ${id}`);
    return rows[0] ? toPolicy(rows[0]) : null;
  }

  async list(organizationId: number): Promise<EscalationPolicy[]> {
    const rows = await this.sql.query<PolicyRow>(sql`${raw(SELECT)} WHERE p.organization_id = ${organizationId} ORDER BY p.name, p.id`);
    return rows.map(toPolicy);
  }

  async save(policy: EscalationPolicy, tx: Transaction): Promise<void> {
    const db = sqlOf(tx);
    const rows =
      await db.query(sql`UPDATE escalation_policies SET name = ${policy.name}, description = ${policy.description}, repeat_count = ${policy.repeatCount}, updated_at = ${policy.updatedAt}, version = version + 1
        WHERE id = ${policy.id} AND organization_id = ${policy.organizationId} AND version = ${policy.version} RETURNING version`);
    if (rows.length === 0) throw new AppError('conflict', {}, 'The escalation policy changed meanwhile; read it again');
    await db.query(sql`DELETE FROM escalation_policy_levels WHERE policy_id = ${policy.id}`);
    await this.writeLevels(db, policy);
    policy.version += 1;
  }

  async remove(policy: EscalationPolicy, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM escalation_policies WHERE id = ${policy.id} AND organization_id = ${policy.organizationId}`);
  }

  private async writeLevels(db: UnitOfWorkSql, policy: EscalationPolicy): Promise<void> {
    await db.query(sql`INSERT INTO escalation_policy_levels (policy_id, position, delay_minutes, targets)
       SELECT ${policy.id}, x.position, x.delay_minutes, x.targets FROM jsonb_to_recordset(${JSON.stringify(
         policy.levels.map((l, position) => ({
           position,
           delay_minutes: l.delayMinutes,
           targets: l.targets.map((t) => ({ type: t.type, id: t.id })),
         })),
       )}::jsonb) AS x(position int, delay_minutes int, targets jsonb)`);
  }
}
