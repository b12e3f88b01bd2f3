import { AppError } from '../../domain/shared/app-error';
import type { ObjectiveSubject } from '../../domain/service-levels/objective';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { MonitorRef } from '../../application/results/ports';
import type { ObjectiveSubjects, SubjectInput } from '../../application/service-levels/ports';
import type { SqlRunner } from '../persistence/database';
import { customerScopeSql, refCondition, scopeSql } from '../persistence/tenant-scope';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

interface MonitorRow {
  id: string;
  public_id: string;
  organization_id: number;
  customer_id: number;
  name: string;
  check_interval_seconds: number;
  locations: string[] | null;
  created_at: Date | string;
}

const toRef = (row: MonitorRow): MonitorRef => ({
  monitorId: Number(row.id),
  publicId: row.public_id,
  organizationId: Number(row.organization_id),
  customerId: Number(row.customer_id),
  name: row.name,
  checkIntervalSeconds: row.check_interval_seconds,
  locations: row.locations ?? [],
  createdAt: new Date(row.created_at),
});

/**
 * Reads the monitors, customers and tags tables (id, public_id, organization_id, customer_id; the
 * monitor's interval, locations and creation; monitor_tags) for objectives' subjects.
 */
export class SqlObjectiveSubjects implements ObjectiveSubjects {
  constructor(private readonly sql: SqlRunner) {}

  resolveIn(scope: TenantScope, input: SubjectInput, tx: Transaction): Promise<{ subject: ObjectiveSubject; customerId: number }> {
    return this.resolve(scope, input, sqlOf(tx));
  }

  async resolve(
    scope: TenantScope,
    input: SubjectInput,
    on: SqlRunner = this.sql,
  ): Promise<{ subject: ObjectiveSubject; customerId: number }> {
    if (input.type === 'website') {
      const condition = refCondition(input.websiteId, 'm');
      const [row] = condition
        ? await on.query<{ id: string; public_id: string; customer_id: number }>(
            sql`SELECT m.id, m.public_id, m.customer_id FROM monitors m WHERE ${scopeSql(scope, 'm')} AND ${condition}`,
          )
        : [];
      if (!row) throw new AppError('websiteNotFound', { field: 'subject.websiteId' });
      return {
        subject: { type: 'monitor', monitorId: Number(row.id), monitorPublicId: row.public_id },
        customerId: Number(row.customer_id),
      };
    }
    const condition = refCondition(input.customerId, 'c');
    const [customer] = condition
      ? await on.query<{ id: number }>(sql`SELECT c.id FROM customers c WHERE ${customerScopeSql(scope, 'c')} AND ${condition}`)
      : [];
    if (!customer) throw new AppError('customerNotFound', { field: 'subject.customerId' });
    const customerId = Number(customer.id);
    if (input.tagId === undefined || input.tagId === null) return { subject: { type: 'customer', customerId, tagId: null }, customerId };
    const tagCondition = refCondition(input.tagId, 't');
    const [tag] = tagCondition
      ? await on.query<{ id: number }>(
          sql`SELECT t.id FROM tags t WHERE t.organization_id = ${scope.organizationId}
            AND (t.customer_id IS NULL OR t.customer_id = ${customerId}) AND ${tagCondition}`,
        )
      : [];
    if (!tag) throw new AppError('tagNotFound', { field: 'subject.tagId' });
    return { subject: { type: 'customer', customerId, tagId: Number(tag.id) }, customerId };
  }

  async monitorsOf(organizationId: number, subject: ObjectiveSubject): Promise<MonitorRef[]> {
    const which =
      subject.type === 'monitor'
        ? sql`m.id = ${subject.monitorId}`
        : subject.tagId === null
          ? sql`m.customer_id = ${subject.customerId}`
          : sql`m.customer_id = ${subject.customerId} AND EXISTS (SELECT 1 FROM monitor_tags mt WHERE mt.monitor_id = m.id AND mt.tag_id = ${subject.tagId})`;
    const rows = await this.sql.query<MonitorRow>(
      sql`SELECT m.id, m.public_id, m.organization_id, m.customer_id, m.name, m.check_interval_seconds, m.locations, m.created_at
       FROM monitors m WHERE m.organization_id = ${organizationId} AND ${which} ORDER BY m.id`,
    );
    return rows.map(toRef);
  }

  async describe(organizationId: number, subject: ObjectiveSubject): Promise<string> {
    if (subject.type === 'monitor') {
      const [row] = await this.sql.query<{ name: string }>(
        sql`SELECT name FROM monitors WHERE organization_id = ${organizationId} AND id = ${subject.monitorId}`,
      );
      return row?.name ?? 'A monitor';
    }
    if (subject.tagId === null) return 'All monitors';
    const [tag] = await this.sql.query<{ name: string }>(
      sql`SELECT name FROM tags WHERE organization_id = ${organizationId} AND id = ${subject.tagId}`,
    );
    return tag ? `Monitors tagged ${tag.name}` : 'All monitors';
  }
}
