import type { ReplayGuard } from '../../application/agent-access/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Used identifiers in PostgreSQL (shared by every instance), kept until the assertion expires. */
export class SqlReplayGuard implements ReplayGuard {
  private usesSinceSweep = 0;

  constructor(private readonly sql: SqlRunner) {}

  async firstUse(issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
    const rows = await this.sql.query(
      sql`INSERT INTO agent_assertion_jtis (issuer, jti, expires_at) VALUES (${issuer}, ${jti}, ${expiresAt}) ON CONFLICT DO NOTHING RETURNING jti`,
    );
    if (++this.usesSinceSweep >= 500) {
      this.usesSinceSweep = 0;
      await this.sql.query(sql`DELETE FROM agent_assertion_jtis WHERE expires_at < now()`);
    }
    return rows.length === 1;
  }
}
