import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { OrganizationSmtp, SmtpSecurity } from '../../domain/notifications/organization-smtp';
import type { OrganizationSmtpStore } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

interface Row {
  organization_id: number;
  host: string;
  port: number;
  security: string;
  username: string | null;
  password_ciphertext: string | null;
  from_address: string;
  verified_at: Date | string;
  updated_at: Date | string;
}

/** One row per organization that has its own SMTP server. */
export class SqlOrganizationSmtpStore implements OrganizationSmtpStore {
  constructor(private readonly sql: SqlRunner) {}

  async get(organizationId: number): Promise<OrganizationSmtp | null> {
    const [row] = await this.sql.query<Row>(sql`SELECT * FROM organization_smtp WHERE organization_id = ${organizationId}`);
    return row
      ? {
          organizationId: row.organization_id,
          host: row.host,
          port: row.port,
          security: row.security as SmtpSecurity,
          username: row.username,
          passwordCiphertext: row.password_ciphertext,
          fromAddress: row.from_address,
          verifiedAt: new Date(row.verified_at),
          updatedAt: new Date(row.updated_at),
        }
      : null;
  }

  async put(s: OrganizationSmtp, tx: Transaction): Promise<void> {
    await sqlOf(tx)
      .query(sql`INSERT INTO organization_smtp (organization_id, host, port, security, username, password_ciphertext, from_address, verified_at, updated_at)
       VALUES (${s.organizationId}, ${s.host}, ${s.port}, ${s.security}, ${s.username}, ${s.passwordCiphertext}, ${s.fromAddress}, ${s.verifiedAt}, ${s.updatedAt})
       ON CONFLICT (organization_id) DO UPDATE SET host = EXCLUDED.host, port = EXCLUDED.port, security = EXCLUDED.security,
         username = EXCLUDED.username, password_ciphertext = EXCLUDED.password_ciphertext, from_address = EXCLUDED.from_address,
         verified_at = EXCLUDED.verified_at, updated_at = EXCLUDED.updated_at`);
  }

  async remove(organizationId: number, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx).query<{ organization_id: number }>(
      sql`DELETE FROM organization_smtp WHERE organization_id = ${organizationId} RETURNING organization_id`,
    );
    return rows.length > 0;
  }
}
