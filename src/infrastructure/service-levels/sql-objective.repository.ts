import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { ServiceLevelObjective, type BurnState, type ObjectiveSubject, type ObjectiveWindow } from '../../domain/service-levels/objective';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ObjectiveRepository } from '../../application/service-levels/ports';
import type { SqlRunner } from '../persistence/database';
import { refCondition, scopeSql } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';

interface ObjectiveRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number;
  name: string;
  target: string;
  window_kind: ObjectiveWindow;
  timezone: string;
  subject_type: 'monitor' | 'customer';
  monitor_id: string | null;
  monitor_public_id: string | null;
  tag_id: number | null;
  alerts_enabled: boolean;
  burn_state: BurnState;
  burn_changed_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

const SELECT = raw(`SELECT o.id, o.public_id, o.organization_id, o.customer_id, o.name, o.target::text AS target, o.window_kind, o.timezone,
  o.subject_type, o.monitor_id, m.public_id AS monitor_public_id, o.tag_id, o.alerts_enabled, o.burn_state, o.burn_changed_at,
  o.created_at, o.updated_at, o.version
  FROM service_level_objectives o LEFT JOIN monitors m ON m.id = o.monitor_id`);

const subjectOf = (row: ObjectiveRow): ObjectiveSubject =>
  row.subject_type === 'monitor'
    ? { type: 'monitor', monitorId: Number(row.monitor_id), monitorPublicId: row.monitor_public_id ?? '' }
    : { type: 'customer', customerId: Number(row.customer_id), tagId: row.tag_id === null ? null : Number(row.tag_id) };

const toObjective = (row: ObjectiveRow) =>
  new ServiceLevelObjective({
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    customerId: Number(row.customer_id),
    name: row.name,
    target: Number(row.target),
    window: row.window_kind,
    timezone: row.timezone,
    subject: subjectOf(row),
    alertsEnabled: row.alerts_enabled,
    burnState: row.burn_state,
    burnChangedAt: row.burn_changed_at === null ? null : new Date(row.burn_changed_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    version: Number(row.version),
  });

const subjectColumns = (subject: ObjectiveSubject) =>
  subject.type === 'monitor' ? { monitorId: subject.monitorId, tagId: null } : { monitorId: null, tagId: subject.tagId };

/** Objectives in plain SQL on the current unit of work (inside a TransactionRunner.run it joins the transaction). */
export class SqlObjectiveRepository implements ObjectiveRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(o: ServiceLevelObjective, tx: Transaction): Promise<ServiceLevelObjective> {
    const { monitorId, tagId } = subjectColumns(o.subject);
    const [row] = await sqlOf(tx).query<{ id: number }>(
      sql`INSERT INTO service_level_objectives (public_id, organization_id, customer_id, name, target, window_kind, timezone, subject_type,
         monitor_id, tag_id, alerts_enabled, burn_state, burn_changed_at, created_at, updated_at, version)
       VALUES (${o.publicId}, ${o.organizationId}, ${o.customerId}, ${o.name}, ${o.target}, ${o.window}, ${o.timezone}, ${o.subject.type},
         ${monitorId}, ${tagId}, ${o.alertsEnabled}, ${o.burnState}, ${o.burnChangedAt}, ${o.createdAt}, ${o.updatedAt}, 1) RETURNING id`,
    );
    o.id = Number(row!.id);
    return o;
  }

  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<ServiceLevelObjective | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async findByRef(scope: TenantScope, ref: string, on: SqlRunner = this.sql): Promise<ServiceLevelObjective | null> {
    const condition = refCondition(ref, 'o');
    if (!condition) return null;
    const [row] = await on.query<ObjectiveRow>(sql`${SELECT} WHERE ${scopeSql(scope, 'o')} AND ${condition}`);
    return row ? toObjective(row) : null;
  }

  async list(scope: TenantScope): Promise<ServiceLevelObjective[]> {
    const rows = await this.sql.query<ObjectiveRow>(sql`${SELECT} WHERE ${scopeSql(scope, 'o')} ORDER BY o.id`);
    return rows.map(toObjective);
  }

  async save(o: ServiceLevelObjective, tx: Transaction): Promise<void> {
    const { monitorId, tagId } = subjectColumns(o.subject);
    const rows = await sqlOf(tx).query(
      sql`UPDATE service_level_objectives SET customer_id = ${o.customerId}, name = ${o.name}, target = ${o.target}, window_kind = ${o.window},
         timezone = ${o.timezone}, subject_type = ${o.subject.type}, monitor_id = ${monitorId}, tag_id = ${tagId}, alerts_enabled = ${o.alertsEnabled},
         burn_state = ${o.burnState}, burn_changed_at = ${o.burnChangedAt}, updated_at = ${o.updatedAt}, version = version + 1
       WHERE id = ${o.id} AND version = ${o.version} RETURNING version`,
    );
    if (rows.length === 0) throw new AppError('conflict', {}, 'The objective changed meanwhile; read it again');
    o.version += 1;
  }

  async remove(o: ServiceLevelObjective, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM service_level_objectives WHERE id = ${o.id}`);
  }

  async alerting(): Promise<ServiceLevelObjective[]> {
    const rows = await this.sql.query<ObjectiveRow>(sql`${SELECT} WHERE o.alerts_enabled OR o.burn_state <> 'ok' ORDER BY o.id`);
    return rows.map(toObjective);
  }

  async claimBurn(objectiveId: number, from: BurnState, to: BurnState, at: Date, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx).query(
      sql`UPDATE service_level_objectives SET burn_state = ${to}, burn_changed_at = ${at}
       WHERE id = ${objectiveId} AND burn_state = ${from} RETURNING id`,
    );
    return rows.length > 0;
  }
}
