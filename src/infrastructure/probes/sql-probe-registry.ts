import type { ProbeInstance, ProbeRegistry } from '../../application/probes/ports';
import type { WireProbeStatus } from '../../application/probes/wire';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

/** The `probes` table. `lockStream` and `advance` run on the results' transaction (`tx`) when given, else on the unit of work's connection. */
export class SqlProbeRegistry implements ProbeRegistry {
  constructor(private readonly sql: SqlRunner) {}

  async greet(
    instance: ProbeInstance,
    about: { name: string; version: string },
    now: Date,
  ): Promise<{ lastSeq: number } | 'keyRetired' | 'moved'> {
    // The key is read again here, not taken from the key cache: a key revoked or a location deleted a moment ago is refused at once.
    const [row] = await this.sql.query<{ live: boolean; last_seq: string | null }>(
      sql`WITH k AS (SELECT id FROM probe_keys WHERE id = ${instance.keyId} AND location_id = ${instance.locationId} AND revoked_at IS NULL),
          greeted AS (
            INSERT INTO probes (instance_id, probe_key_id, location_id, name, version, first_seen_at, last_seen_at)
            SELECT ${instance.instanceId}::uuid, k.id, ${instance.locationId}, ${about.name}, ${about.version}, ${now}, ${now} FROM k
            ON CONFLICT (instance_id) DO UPDATE SET probe_key_id = EXCLUDED.probe_key_id, name = EXCLUDED.name,
              version = EXCLUDED.version, last_seen_at = EXCLUDED.last_seen_at
            WHERE probes.location_id = EXCLUDED.location_id
            RETURNING last_seq)
          SELECT EXISTS (SELECT 1 FROM k) AS live, (SELECT last_seq FROM greeted) AS last_seq`,
    );
    if (!row?.live) return 'keyRetired';
    return row.last_seq === null ? 'moved' : { lastSeq: Number(row.last_seq) };
  }

  async touch(instanceId: string, locationId: number, now: Date): Promise<boolean> {
    // The write is skipped while the last one is under a second old: probes call several times a second.
    const [row] = await this.sql.query<{ n: string }>(
      sql`WITH p AS (SELECT instance_id, last_seen_at FROM probes WHERE instance_id = ${instanceId}::uuid AND location_id = ${locationId}),
          u AS (UPDATE probes SET last_seen_at = ${now} FROM p
                WHERE probes.instance_id = p.instance_id AND p.last_seen_at < ${now}::timestamptz - interval '1 second')
          SELECT count(*) AS n FROM p`,
      { prepare: true },
    );
    return Number(row?.n ?? 0) === 1;
  }

  async lockStream(instanceId: string, locationId: number, tx: Transaction): Promise<number | null> {
    const [row] = await sqlOf(tx).query<{ last_seq: string }>(
      sql`SELECT last_seq FROM probes WHERE instance_id = ${instanceId}::uuid AND location_id = ${locationId} FOR UPDATE`,
      { prepare: true },
    );
    return row ? Number(row.last_seq) : null;
  }

  async advance(instanceId: string, lastSeq: number, status: WireProbeStatus, now: Date, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`UPDATE probes SET last_seq = ${lastSeq}, last_seen_at = ${now}, monitors_held = ${status.monitorsHeld},
            checks_per_second = ${status.checksPerSecond}, lag_ms = ${Math.min(status.lagMs, 2_147_483_647)},
            buffered = ${status.buffered}, dropped = ${status.dropped}
          WHERE instance_id = ${instanceId}::uuid`,
      { prepare: true },
    );
  }
}
