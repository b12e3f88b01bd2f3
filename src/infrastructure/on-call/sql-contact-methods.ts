import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { ResponderContactMethods } from '../../application/incident-management/ports';
import type { ContactMethodRepository } from '../../application/on-call/ports';
import { ACCOUNT_EMAIL_METHOD, type ContactMethod, type ContactMethodType } from '../../domain/incident-management/contact-method';
import type { CredentialCipher } from '../../application/monitoring/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';

interface Row {
  user_id: string;
  id: string;
  organization_id: number;
  type: ContactMethodType;
  address: string | null;
  enabled: boolean;
  secret_ciphertext: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}
const COLUMNS = 'user_id, id, organization_id, type, address, enabled, secret_ciphertext, created_at, updated_at';

/** The sealing context of a method's secret: a ciphertext copied onto another method does not open. */
const secretContext = (id: string) => `im-contact-method:${id}:secret`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Contact methods in im_contact_methods, on the current unit of work; every statement names the
 * organization. Webhook secrets are sealed with the credential cipher at rest.
 */
export class SqlContactMethods implements ContactMethodRepository, ResponderContactMethods {
  constructor(
    private readonly sql: SqlRunner,
    private readonly cipher: CredentialCipher,
  ) {}

  private readonly methodOf = (row: Row): ContactMethod => ({
    id: row.id,
    organizationId: Number(row.organization_id),
    userId: row.user_id,
    type: row.type,
    address: row.address ?? '',
    enabled: row.enabled,
    secret: row.secret_ciphertext === null ? null : this.cipher.decrypt(row.secret_ciphertext, secretContext(row.id)),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });

  async list(organizationId: number, userId: string): Promise<ContactMethod[]> {
    if (!UUID.test(userId)) return [];
    const rows = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM im_contact_methods WHERE organization_id = ${organizationId} AND user_id = ${userId} ORDER BY created_at, id`,
    );
    return rows.map(this.methodOf);
  }

  async find(organizationId: number, id: string): Promise<ContactMethod | null> {
    if (!UUID.test(id)) return null;
    const rows = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM im_contact_methods WHERE organization_id = ${organizationId} AND id = ${id.toLowerCase()}`,
    );
    return rows[0] ? this.methodOf(rows[0]) : null;
  }

  async put(method: ContactMethod, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`INSERT INTO im_contact_methods (${raw(COLUMNS)})
       SELECT u.id, ${method.id}, u.organization_id, ${method.type}, ${method.id === ACCOUNT_EMAIL_METHOD ? null : method.address}, ${method.enabled}, ${method.secret === null ? null : this.cipher.encrypt(method.secret, secretContext(method.id))}, ${method.createdAt}, ${method.updatedAt} FROM users u WHERE u.id = ${method.userId} AND u.organization_id = ${method.organizationId}
       ON CONFLICT (user_id, id) DO UPDATE SET address = EXCLUDED.address, enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`,
    );
  }

  async remove(organizationId: number, userId: string, id: string, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`DELETE FROM im_contact_methods WHERE organization_id = ${organizationId} AND user_id = ${userId} AND id = ${id}`,
    );
  }

  ofUsersIn(organizationId: number, userIds: readonly string[], tx: Transaction): Promise<Map<string, ContactMethod[]>> {
    return this.ofUsers(organizationId, userIds, sqlOf(tx));
  }

  async ofUsers(organizationId: number, userIds: readonly string[], on: SqlRunner = this.sql): Promise<Map<string, ContactMethod[]>> {
    const ids = userIds.filter((id) => UUID.test(id));
    const byUser = new Map<string, ContactMethod[]>();
    if (ids.length === 0) return byUser;
    const rows = await on.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM im_contact_methods WHERE organization_id = ${organizationId} AND user_id = ANY(${ids}::uuid[]) ORDER BY created_at, id`,
    );
    for (const row of rows) {
      const list = byUser.get(row.user_id) ?? [];
      list.push(this.methodOf(row));
      byUser.set(row.user_id, list);
    }
    return byUser;
  }
}
