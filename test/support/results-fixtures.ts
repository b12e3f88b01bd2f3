import { randomUUID } from 'node:crypto';
import {
  RecordCheckResult,
  type RecordCheckResultInput,
  type RecordCheckResultOutcome,
} from '../../src/application/incidents/record-check-result';
import { LIVE_LOCATIONS_TTL_MS } from '../../src/application/incidents/cached-live-locations';
import { testServer } from './test-server';
import { testClock } from './test-clock';
import { sql } from '../../src/infrastructure/persistence/sql';

export interface MonitorRow {
  id: number;
  publicId: string;
  organizationId: number;
  customerId: number;
  checkIntervalSeconds: number;
}

/**
 * A monitor row inserted directly, with the columns the results and incidents contexts read (the
 * monitors API has its own tests). Defaults: 60 s interval, alert after 2 failures, "0.50" of locations.
 */
export async function aMonitorRow(
  organizationId: number,
  customerId: number,
  overrides: Partial<{
    name: string;
    checkIntervalSeconds: number;
    locations: string[];
    consecutiveChecks: number;
    threshold: string;
    thresholdCount: number;
    reminderMinutes: number;
    sslReminderDays: number | null;
    dnsblReminderDays: number | null;
    createdAt: Date;
  }> = {},
): Promise<MonitorRow> {
  const { database } = await testServer();
  const publicId = randomUUID();
  const o = {
    name: 'Shop',
    checkIntervalSeconds: 60,
    locations: ['eu'],
    consecutiveChecks: 2,
    threshold: '0.50',
    thresholdCount: 1,
    reminderMinutes: 60,
    sslReminderDays: null,
    dnsblReminderDays: null,
    createdAt: new Date(testClock.now().getTime() - 90 * 86_400_000),
    ...overrides,
  };
  const [row] = await database.sql.query<{ id: string }>(
    sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations,
       alert_consecutive_checks, alert_location_threshold, alert_location_threshold_count, alert_reminder_interval,
       ssl_expiry_reminder_interval, dnsbl_reminder_interval, created_at)
     VALUES (${publicId}, ${organizationId}, ${customerId}, ${o.name}, ${o.checkIntervalSeconds}, ${`{${o.locations.join(',')}}`}::text[], ${o.consecutiveChecks}, ${o.threshold}, ${o.thresholdCount}, ${o.reminderMinutes}, ${o.sslReminderDays}, ${o.dnsblReminderDays}, ${o.createdAt}) RETURNING id`,
  );
  return { id: Number(row!.id), publicId, organizationId, customerId, checkIntervalSeconds: o.checkIntervalSeconds };
}

export { aResult } from './builders';

/** Feeds one result through the use case, in its own unit of work as the check engine will. */
export async function record(
  monitor: MonitorRow,
  location: string,
  result: RecordCheckResultInput['result'],
): Promise<RecordCheckResultOutcome> {
  const app = await testServer();
  return app.container.get(RecordCheckResult).execute({
    monitorId: monitor.id,
    organizationId: monitor.organizationId,
    customerId: monitor.customerId,
    location,
    intervalMs: monitor.checkIntervalSeconds * 1000,
    result,
  });
}

/** A registered check process (a row of check_workers) that a test keeps alive, lets lapse or brings back. */
export interface ServingProcess {
  /** Its lease ran out: its locations are silent unless another process serves them. */
  lapse(): Promise<void>;
  /** Alive again. */
  revive(): Promise<void>;
  /** Gone (as after a clean stop). */
  remove(): Promise<void>;
}

/**
 * A check process serving `locations`, alive until the test says otherwise, so that their results
 * vote (a location no live process serves is silent: see domain/incidents/quorum.ts). Each move
 * steps the test clock past the recording path's cache of the live locations, so it is seen at once.
 */
export async function aProcessServing(locations: readonly string[]): Promise<ServingProcess> {
  const { database } = await testServer();
  const workerId = `test-process-${randomUUID()}`;
  const seen = () => testClock.advance(LIVE_LOCATIONS_TTL_MS);
  await database.sql.query(
    sql`INSERT INTO check_workers (worker_id, locations, alive_until) VALUES (${workerId}, ${`{${locations.join(',')}}`}::text[], 'infinity')`,
  );
  seen();
  return {
    lapse: async () => {
      await database.sql.query(
        sql`UPDATE check_workers SET alive_until = ${new Date(testClock.now().getTime() - 60_000)} WHERE worker_id = ${workerId}`,
      );
      seen();
    },
    revive: async () => {
      await database.sql.query(sql`UPDATE check_workers SET alive_until = 'infinity' WHERE worker_id = ${workerId}`);
      seen();
    },
    remove: async () => {
      await database.sql.query(sql`DELETE FROM check_workers WHERE worker_id = ${workerId}`);
      seen();
    },
  };
}

/**
 * Moves the shared test clock on, if need be, so that the last `spanMs` before now lie after the
 * hours the rollups cover: results a test records there are read from the raw results, whatever
 * another test rolled up before (a closed hour is read from its rollup, and a result recorded into it
 * afterwards waits for the redo job). The clock never moves back, so this only ever advances it.
 */
export async function clearOfRollups(spanMs: number): Promise<void> {
  const { database } = await testServer();
  const [progress] = await database.sql.query<{ rolled_to: Date }>(sql`SELECT rolled_to FROM check_rollup_progress`);
  if (!progress) return;
  const behind = new Date(progress.rolled_to).getTime() - (testClock.now().getTime() - spanMs);
  if (behind > 0) testClock.advance(behind + 60_000);
}
