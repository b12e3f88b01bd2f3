import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { standingAlone } from '../persistence/pool-guard';

/**
 * Location codes <-> their smallint ids, cached (codes are few and never renamed). Lookups run on
 * the caller's connection; a new code is registered on its own connection, so the id outlives the
 * caller's transaction whatever becomes of it.
 */
export class LocationCodes {
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly sql: SqlRunner,
    private readonly register: SqlRunner,
  ) {}

  /**
   * The id of a code, registered on first use. Called inside a transaction's work (a batch of
   * results being stored), it stands alone on the pool on purpose (the pool guard's named escape):
   * a new code's id must outlive that transaction, and once known the id is cached, so the pool is
   * asked once per code and process.
   */
  idOf(code: string): Promise<number> {
    return standingAlone('a location code registers once, apart from the transaction that first uses it', async () => {
      const known = await this.find(code);
      if (known !== null) return known;
      await this.register.query(sql`INSERT INTO check_locations (code) VALUES (${code}) ON CONFLICT (code) DO NOTHING`);
      return (await this.find(code))!;
    });
  }

  /** The id of a known code, or null (a filter on an unknown location matches nothing). */
  async find(code: string): Promise<number | null> {
    const cached = this.ids.get(code);
    if (cached !== undefined) return cached;
    const [row] = await this.sql.query<{ id: number }>(sql`SELECT id FROM check_locations WHERE code = ${code}`);
    if (!row) return null;
    this.ids.set(code, Number(row.id));
    return Number(row.id);
  }
}
