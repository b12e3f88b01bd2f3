import { createHash } from 'node:crypto';
import { PROBE_KEY_PREFIX } from '../../domain/locations/probe-key';
import type { ProbeCredentials, ProbeIdentity } from '../../application/locations/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Longer than any secret the service issues (`pk_` + 43 characters): not worth a digest. */
const MAX_SECRET_LENGTH = 200;

/**
 * Probe keys as the probe API checks them: the SHA-256 of the presented secret looked up through the
 * unique index on the digest (so the comparison does not depend on the secret's bytes), live keys
 * only. The same statement notes the key's last use, at most once a minute per key: a probe
 * authenticates every request, and a write for each would cost more than the request.
 */
export class SqlProbeCredentials implements ProbeCredentials {
  constructor(private readonly sql: SqlRunner) {}

  async authenticate(secret: string, now: Date): Promise<ProbeIdentity | null> {
    if (!secret.startsWith(PROBE_KEY_PREFIX) || secret.length > MAX_SECRET_LENGTH) return null;
    const digest = createHash('sha256').update(secret).digest();
    const [row] = await this.sql.query(
      sql`WITH k AS (
            SELECT k.id, k.location_id, l.code, l.organization_id, k.last_used_at
              FROM probe_keys k JOIN locations l ON l.id = k.location_id
             WHERE k.secret_digest = ${digest} AND k.revoked_at IS NULL),
          touched AS (
            UPDATE probe_keys u SET last_used_at = ${now}::timestamptz FROM k
             WHERE u.id = k.id AND (k.last_used_at IS NULL OR k.last_used_at <= ${now}::timestamptz - interval '1 minute')
            RETURNING u.id)
          SELECT k.id, k.location_id, k.code, k.organization_id FROM k`,
    );
    if (!row) return null;
    return {
      keyId: Number(row.id),
      locationId: Number(row.location_id),
      locationCode: String(row.code),
      organizationId: row.organization_id === null ? null : Number(row.organization_id),
    };
  }
}
