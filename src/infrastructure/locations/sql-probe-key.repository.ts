import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { ProbeKey } from '../../domain/locations/probe-key';
import type { ProbeKeyRepository } from '../../application/locations/ports';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLUMNS = sql`k.id, k.public_id, k.location_id, k.name, k.secret_digest, k.secret_prefix, k.created_at, k.last_used_at, k.revoked_at`;

const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string | Date));

/** The digest is stored as the raw 32 bytes; the domain holds it as the SecretTokens digest (base64url). */
const keyOf = (row: SqlRow) =>
  new ProbeKey({
    id: Number(row.id),
    publicId: String(row.public_id),
    locationId: Number(row.location_id),
    name: String(row.name),
    secretDigest: (row.secret_digest as Buffer).toString('base64url'),
    secretPrefix: String(row.secret_prefix),
    createdAt: new Date(row.created_at as string | Date),
    lastUsedAt: dateOrNull(row.last_used_at),
    revokedAt: dateOrNull(row.revoked_at),
  });

/** Probe keys in plain SQL on the current unit of work (the audit trigger records issue and revocation). */
export class SqlProbeKeyRepository implements ProbeKeyRepository {
  constructor(private readonly sql: SqlRunner) {}

  async list(locationId: number): Promise<ProbeKey[]> {
    const rows = await this.sql.query(sql`SELECT ${COLUMNS} FROM probe_keys k WHERE k.location_id = ${locationId} ORDER BY k.id DESC`);
    return rows.map(keyOf);
  }

  async find(locationId: number, publicId: string): Promise<ProbeKey | null> {
    if (!UUID.test(publicId)) return null;
    const [row] = await this.sql.query(
      sql`SELECT ${COLUMNS} FROM probe_keys k WHERE k.location_id = ${locationId} AND k.public_id = ${publicId}::uuid`,
    );
    return row ? keyOf(row) : null;
  }

  async add(key: ProbeKey, tx: Transaction): Promise<ProbeKey> {
    const [row] = await sqlOf(tx).query<{ id: string }>(
      sql`INSERT INTO probe_keys (public_id, location_id, name, secret_digest, secret_prefix, created_at)
          VALUES (${key.publicId}::uuid, ${key.locationId}, ${key.name}, ${Buffer.from(key.secretDigest, 'base64url')},
                  ${key.secretPrefix}, ${key.createdAt}) RETURNING id`,
    );
    key.id = Number(row!.id);
    return key;
  }

  /**
   * A key's one change is its revocation, once and for good: a key revoked meanwhile keeps its first
   * revocation (no version: there is nothing a second writer could overwrite).
   */
  async save(key: ProbeKey, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`UPDATE probe_keys SET revoked_at = ${key.revokedAt} WHERE id = ${key.id} AND revoked_at IS NULL`);
  }
}
