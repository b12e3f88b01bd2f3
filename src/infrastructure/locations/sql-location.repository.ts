import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { Location } from '../../domain/locations/location';
import type { LocationRepository } from '../../application/locations/ports';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { empty, sql } from '../persistence/sql';
import { versionSaved } from '../persistence/optimistic';

const COLUMNS = sql`l.id, l.code, l.name, l.organization_id, l.created_at, l.version`;

const locationOf = (row: SqlRow) =>
  Object.assign(
    new Location({
      id: Number(row.id),
      code: String(row.code),
      name: String(row.name),
      organizationId: row.organization_id === null ? null : Number(row.organization_id),
      createdAt: new Date(row.created_at as string | Date),
    }),
    { version: Number(row.version) },
  );

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/** Location rows in plain SQL on the current unit of work (the audit trigger records each change). */
export class SqlLocationRepository implements LocationRepository {
  constructor(private readonly sql: SqlRunner) {}

  async findByCode(code: string): Promise<Location | null> {
    const [row] = await this.sql.query(sql`SELECT ${COLUMNS} FROM locations l WHERE l.code = ${code}`);
    return row ? locationOf(row) : null;
  }

  async list(organizationId: number | null): Promise<Location[]> {
    const scope = organizationId === null ? empty : sql`WHERE l.organization_id IS NULL OR l.organization_id = ${organizationId}`;
    const rows = await this.sql.query(sql`SELECT ${COLUMNS} FROM locations l ${scope} ORDER BY l.code`);
    return rows.map(locationOf);
  }

  async add(location: Location, tx: Transaction): Promise<Location> {
    try {
      const [row] = await sqlOf(tx).query<{ id: string }>(
        sql`INSERT INTO locations (code, name, organization_id, created_at)
            VALUES (${location.code}, ${location.name}, ${location.organizationId}, ${location.createdAt}) RETURNING id`,
      );
      location.id = Number(row!.id);
      return location;
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('locationCodeTaken', { location: location.code });
      throw error;
    }
  }

  /** Optimistic: a location renamed since it was read answers `conflict`. */
  async save(location: Location, tx: Transaction): Promise<void> {
    const rows = await sqlOf(tx).query(
      sql`UPDATE locations SET name = ${location.name}, version = version + 1
          WHERE id = ${location.id} AND version = ${location.version} RETURNING version`,
    );
    versionSaved(location, rows);
  }

  /**
   * One statement: counts the monitors listing the code (a private location's can only be its
   * organization's) and deletes the row when there are none; keys and probe records go with it.
   */
  async removeUnlessUsed(location: Location, tx: Transaction): Promise<number> {
    const owner = location.organizationId === null ? empty : sql`AND m.organization_id = ${location.organizationId}`;
    const [row] = await sqlOf(tx).query<{ monitors: number }>(
      sql`WITH used AS (SELECT count(*)::int AS monitors FROM monitors m WHERE ${location.code} = ANY(m.locations) ${owner}),
              gone AS (DELETE FROM locations WHERE id = ${location.id} AND (SELECT monitors FROM used) = 0 RETURNING id)
          SELECT (SELECT monitors FROM used) AS monitors, (SELECT count(*)::int FROM gone) AS deleted`,
    );
    return Number(row!.monitors);
  }
}
