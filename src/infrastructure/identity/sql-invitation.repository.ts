import type { Invitation } from '../../domain/identity/invitation';
import type { Role } from '../../domain/identity/role';
import type { InvitationRepository } from '../../application/identity/invitation-ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { sqlOf } from '../persistence/sql-transaction';
import { sql } from '../persistence/sql';

interface Row {
  id: string;
  organization_id: number;
  customer_id: number | null;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
}

const COLUMNS = sql`id, organization_id, customer_id, email, role, invited_by, created_at, expires_at`;

const present = (r: Row): Invitation => ({
  id: r.id,
  organizationId: r.organization_id,
  customerId: r.customer_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
});

/** user_invitations on the current unit of work (or the transaction a write is handed), so an acceptance and the user it creates commit together. */
export class SqlInvitationRepository implements InvitationRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(i: Invitation, tokenHash: string, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`INSERT INTO user_invitations
      (id, organization_id, customer_id, email, role, token_hash, invited_by, created_at, expires_at)
      VALUES (${i.id}, ${i.organizationId}, ${i.customerId}, ${i.email}, ${i.role}, ${tokenHash}, ${i.invitedBy}, ${i.createdAt}, ${i.expiresAt})`);
  }

  async listPending(organizationId: number, now: Date): Promise<Invitation[]> {
    const rows = await this.sql.query<Row>(sql`SELECT ${COLUMNS} FROM user_invitations
      WHERE organization_id = ${organizationId} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}
      ORDER BY created_at, id`);
    return rows.map(present);
  }

  hasPendingIn(organizationId: number, email: string, now: Date, tx: Transaction): Promise<boolean> {
    return this.hasPending(organizationId, email, now, sqlOf(tx));
  }

  async hasPending(organizationId: number, email: string, now: Date, on: SqlRunner = this.sql): Promise<boolean> {
    const rows = await on.query(sql`SELECT 1 FROM user_invitations
      WHERE organization_id = ${organizationId} AND lower(email) = lower(${email})
        AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}`);
    return rows.length > 0;
  }

  async revoke(organizationId: number, id: string, now: Date, tx: Transaction): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
    const rows = await sqlOf(tx).query(sql`UPDATE user_invitations SET revoked_at = ${now}
      WHERE id = ${id} AND organization_id = ${organizationId} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}
      RETURNING id`);
    return rows.length > 0;
  }

  async findPendingByTokenHash(tokenHash: string, now: Date): Promise<Invitation | null> {
    const [row] = await this.sql.query<Row>(sql`SELECT ${COLUMNS} FROM user_invitations
      WHERE token_hash = ${tokenHash} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}`);
    return row ? present(row) : null;
  }

  async claim(tokenHash: string, now: Date, tx: Transaction): Promise<Invitation | null> {
    const [row] = await sqlOf(tx).query<Row>(sql`UPDATE user_invitations SET accepted_at = ${now}
      WHERE token_hash = ${tokenHash} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}
      RETURNING ${COLUMNS}`);
    return row ? present(row) : null;
  }
}
