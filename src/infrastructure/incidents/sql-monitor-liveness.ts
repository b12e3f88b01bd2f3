import type { LivenessCandidate, LivenessUpdate, MonitorLivenessStore } from '../../application/incidents/ports';
import { alertPolicyOfRow, type AlertSettingsRow } from '../results/sql-monitor-lookup';
import { HEARTBEAT_LOCATION } from '../../domain/checks/heartbeat';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import { appendLiveEvents } from '../live-events/live-event-append';
import type { Transaction } from '../../application/shared/transaction';

interface CandidateRow extends AlertSettingsRow {
  id: string;
  public_id: string;
  organization_id: number;
  customer_id: number;
  check_interval_seconds: number;
  status: string;
  reported: string[] | null;
  open_incident_id: number | null;
  silent_locations: string[] | null;
  undecided_since: Date | string | null;
}

const candidateOf = (row: CandidateRow): LivenessCandidate => ({
  monitorId: Number(row.id),
  publicId: row.public_id,
  organizationId: row.organization_id,
  customerId: row.customer_id,
  checkIntervalSeconds: row.check_interval_seconds,
  paused: row.status === 'paused',
  policy: alertPolicyOfRow(row),
  reported: row.reported ?? [],
  incidentOpen: row.open_incident_id !== null,
  stored: {
    silentLocations: row.silent_locations ?? [],
    undecidedSince: row.undecided_since === null ? null : new Date(row.undecided_since),
  },
});

/**
 * The liveness job's reads and writes. The locations that may be silent are those known anywhere
 * (the catalogue, platform and private locations, check processes' registrations, locations with
 * stored results) and not live; the
 * monitors checked from them are found through their schedule rows (one per active monitor and
 * location), those stored as silent through a partial index. While every location is live, both
 * lists are empty.
 */
export class SqlMonitorLiveness implements MonitorLivenessStore {
  constructor(
    private readonly pool: SqlRunner,
    private readonly tx: SqlRunner,
    private readonly catalogue: readonly string[],
  ) {}

  async candidates(live: readonly string[], afterId: number, limit: number): Promise<LivenessCandidate[]> {
    const rows = await this.pool.query<CandidateRow>(sql`
      WITH known AS (
        SELECT code FROM check_locations
        UNION SELECT code FROM locations
        UNION SELECT unnest(locations) FROM check_workers
        UNION SELECT unnest(${[...this.catalogue]}::text[])
      ), silent AS (
        SELECT code FROM known WHERE code <> ${HEARTBEAT_LOCATION} AND NOT code = ANY(${[...live]}::text[])
      ), picked AS (
        SELECT monitor_id FROM check_schedule WHERE location IN (SELECT code FROM silent) AND monitor_id > ${afterId}
        UNION SELECT monitor_id FROM monitor_alert_states
        WHERE (silent_locations <> '{}' OR undecided_since IS NOT NULL) AND monitor_id > ${afterId}
        ORDER BY 1 LIMIT ${limit}
      )
      SELECT m.id, m.public_id, m.organization_id, m.customer_id, m.check_interval_seconds, m.status, m.locations,
             m.alert_consecutive_checks, m.alert_retry_interval, m.alert_location_threshold::text AS alert_location_threshold,
             m.alert_location_threshold_count, m.alert_reminder_interval, m.ssl_expiry_reminder_interval, m.dnsbl_reminder_interval,
             ARRAY(SELECT jsonb_object_keys(coalesce(s.locations, '{}'::jsonb))) AS reported,
             s.open_incident_id, s.silent_locations, s.undecided_since
        FROM picked p JOIN monitors m ON m.id = p.monitor_id
        LEFT JOIN monitor_alert_states s ON s.monitor_id = m.id
       ORDER BY m.id`);
    return rows.map(candidateOf);
  }

  async store(updates: readonly LivenessUpdate[], now: Date, tx: Transaction): Promise<number[]> {
    if (updates.length === 0) return [];
    const rows = updates.map(({ candidate: c, change }) => [
      c.monitorId,
      c.organizationId,
      c.customerId,
      c.checkIntervalSeconds,
      c.stored.silentLocations,
      c.stored.undecidedSince?.toISOString() ?? null,
      change.silentLocations,
      change.undecidedSince?.toISOString() ?? null,
    ]);
    // A monitor without an alert state yet (nothing judged) gets one; every other is changed only
    // over the liveness its change was computed from.
    const stored = await sqlOf(tx).query<{ monitor_id: string; changed: boolean }>(sql`
      WITH c AS (
        SELECT (e->>0)::bigint AS monitor_id, (e->>1)::integer AS organization_id, (e->>2)::integer AS customer_id,
               (e->>3)::integer AS check_interval_seconds,
               ARRAY(SELECT jsonb_array_elements_text(e->4)) AS old_silent, (e->>5)::timestamptz AS old_since,
               ARRAY(SELECT jsonb_array_elements_text(e->6)) AS silent, (e->>7)::timestamptz AS since
          FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS r(e)
      ), inserted AS (
        INSERT INTO monitor_alert_states (monitor_id, organization_id, customer_id, check_interval_seconds, updated_at, silent_locations, undecided_since)
        SELECT monitor_id, organization_id, customer_id, check_interval_seconds, ${now}, silent, since FROM c
         WHERE old_silent = '{}' AND old_since IS NULL
           AND NOT EXISTS (SELECT 1 FROM monitor_alert_states a WHERE a.monitor_id = c.monitor_id)
        ON CONFLICT (monitor_id) DO NOTHING
        RETURNING monitor_id, true AS changed
      ), updated AS (
        UPDATE monitor_alert_states a SET silent_locations = c.silent, undecided_since = c.since
          FROM c
         WHERE a.monitor_id = c.monitor_id AND a.silent_locations = c.old_silent
           AND a.undecided_since IS NOT DISTINCT FROM c.old_since
        RETURNING a.monitor_id, (c.old_since IS NULL) <> (c.since IS NULL) AS changed
      )
      SELECT monitor_id, changed FROM inserted UNION ALL SELECT monitor_id, changed FROM updated`);
    // A state written first, or whose undecided mark came or went: a state change of the live stream.
    await appendLiveEvents(
      tx,
      stored.filter((row) => row.changed).map((row) => ({ kind: 'monitor.stateChanged', monitorId: Number(row.monitor_id) })),
    );
    return stored.map((row) => Number(row.monitor_id));
  }
}
