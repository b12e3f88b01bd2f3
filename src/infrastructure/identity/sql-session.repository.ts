import { Session, type SessionKind } from '../../domain/identity/session';
import type { SessionRepository } from '../../application/identity/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, optionalDateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql, type Sql } from '../persistence/sql';
import type { CallerCache } from './caller-cache';

export const SESSION_COLUMNS = raw('id, user_id, token_hash, kind, expires_at, step_up_verified_at, created_at, version');

/** A stored session (no constructor: the row was valid when written). */
export function sessionOf(row: SqlRow): Session {
  return Object.assign(Object.create(Session.prototype) as Session, {
    id: row.id as string,
    userId: row.user_id as string,
    tokenHash: row.token_hash as string,
    kind: row.kind as SessionKind,
    expiresAt: dateOf(row.expires_at as Date | string),
    stepUpVerifiedAt: optionalDateOf(row.step_up_verified_at as Date | string | null),
    createdAt: dateOf(row.created_at as Date | string),
    version: Number(row.version),
  });
}

/**
 * Sessions in the `sql` kit; a save (a step-up) names the version it read. Every write but the
 * opening of a session drops the cached callers, so an ended session stops working at once here.
 */
export class SqlSessionRepository implements SessionRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly callers: CallerCache,
  ) {}

  async add(session: Session, tx: Transaction): Promise<void> {
    const s = session;
    await racing(() =>
      sqlOf(tx).query(
        sql`INSERT INTO sessions (${SESSION_COLUMNS})
        VALUES (${s.id}, ${s.userId}, ${s.tokenHash}, ${s.kind}, ${s.expiresAt}, ${s.stepUpVerifiedAt}, ${s.createdAt}, ${s.version})`,
      ),
    );
  }

  findByTokenHash(tokenHash: string): Promise<Session | null> {
    return this.one(sql`token_hash = ${tokenHash}`);
  }

  findById(id: string): Promise<Session | null> {
    return this.one(sql`id = ${id}`);
  }

  async save(session: Session, tx: Transaction): Promise<void> {
    const s = session;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE sessions SET expires_at = ${s.expiresAt}, step_up_verified_at = ${s.stepUpVerifiedAt}, version = version + 1
        WHERE id = ${s.id} AND version = ${s.version} RETURNING version`,
      ),
    );
    versionSaved(session, rows);
    this.callers.clear();
  }

  async remove(session: Session, tx: Transaction): Promise<void> {
    await racing(() => sqlOf(tx).query(sql`DELETE FROM sessions WHERE id = ${session.id}`));
    this.callers.clear();
  }

  async removeAllOfUser(userId: string, tx: Transaction): Promise<void> {
    await racing(() => sqlOf(tx).query(sql`DELETE FROM sessions WHERE user_id = ${userId}`));
    this.callers.clear();
  }

  /** A column the user's mapper does not write: no version bump, and credentials resolve as before. */
  async recordSignIn(userId: string, at: Date, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`UPDATE users SET last_sign_in_at = ${at} WHERE id = ${userId}`);
  }

  private async one(where: Sql): Promise<Session | null> {
    const [row] = await this.sql.query(sql`SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${where}`);
    return row ? sessionOf(row) : null;
  }
}
