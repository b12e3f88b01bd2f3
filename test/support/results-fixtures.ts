import { randomUUID } from 'node:crypto';
import { RequestContext } from '@mikro-orm/postgresql';
import {
  RecordCheckResult,
  type RecordCheckResultInput,
  type RecordCheckResultOutcome,
} from '../../src/application/incidents/record-check-result';
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
  return RequestContext.create(app.database.orm.em, () =>
    app.container.get(RecordCheckResult).execute({
      monitorId: monitor.id,
      organizationId: monitor.organizationId,
      customerId: monitor.customerId,
      location,
      intervalMs: monitor.checkIntervalSeconds * 1000,
      result,
    }),
  );
}
