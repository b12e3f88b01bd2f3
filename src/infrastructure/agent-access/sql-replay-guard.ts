import type { ReplayGuard } from '../../application/agent-access/ports';
import type { SqlRunner } from '../persistence/database';

/** Used identifiers in PostgreSQL (shared by every instance), kept until the assertion expires. */
export class SqlReplayGuard implements ReplayGuard {
  private usesSinceSweep = 0;

  constructor(private readonly sql: SqlRunner) {}

  async firstUse(issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO agent_assertion_jtis (issuer, jti, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING jti`,
      [issuer, jti, expiresAt],
    );
    if (++this.usesSinceSweep >= 500) {
      this.usesSinceSweep = 0;
      await this.sql.query(`DELETE FROM agent_assertion_jtis WHERE expires_at < now()`);
    }
    return rows.length === 1;
  }
}
