import type { ImPeople, PagingContact, PagingContacts } from '../../application/on-call/ports';
import type { SqlRunner } from '../persistence/database';
import { isUuid } from '../persistence/uuid';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

/** Users, their addresses and the IM switch, read from the identity tables. */
export class SqlImPeople implements ImPeople, PagingContacts {
  constructor(private readonly sql: SqlRunner) {}

  async named(organizationId: number, userIds: readonly string[]): Promise<Map<string, string>> {
    const ids = userIds.filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string; name: string }>(
      sql`SELECT id, name FROM users WHERE organization_id = ${organizationId} AND id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`,
    );
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async imEnabled(organizationId: number): Promise<boolean> {
    const rows = await this.sql.query<{ on: boolean }>(
      sql`SELECT incident_management_enabled AS on FROM organizations WHERE id = ${organizationId}`,
    );
    return rows[0]?.on === true;
  }

  contactsIn(organizationId: number, userIds: readonly string[], tx: Transaction): Promise<Map<string, PagingContact>> {
    return this.contacts(organizationId, userIds, sqlOf(tx));
  }

  async contacts(organizationId: number, userIds: readonly string[], on: SqlRunner = this.sql): Promise<Map<string, PagingContact>> {
    const ids = userIds.filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await on.query<{ id: string; name: string; email: string }>(sql`SELECT id, name, email FROM users
        WHERE organization_id = ${organizationId} AND is_active AND id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`);
    return new Map(rows.map((row) => [row.id, { name: row.name, email: row.email }]));
  }
}
