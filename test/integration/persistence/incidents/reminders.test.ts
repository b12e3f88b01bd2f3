import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { api } from '../../../support/http-client';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record, type MonitorRow } from '../../../support/results-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function eventsOf(monitor: MonitorRow) {
  const { database } = await testServer();
  return database.sql.query<{ kind: string; payload: Record<string, any>; subject: string }>(
    sql`SELECT kind, payload, subject FROM notification_outbox WHERE kind <> 'email' AND (payload->>'monitorId')::bigint = ${monitor.id} ORDER BY id`,
  );
}

describe('Alert reminders through the outbox', () => {
  it('re-notifies every alertReminderInterval while open, stops once acknowledged', async () => {
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1, reminderMinutes: 5, name: 'API' });
    const t0 = new Date(testClock.now().getTime() - 12.5 * MINUTE);
    for (let m = 0; m <= 12; m += 1) await record(monitor, 'eu', aResult('down', new Date(t0.getTime() + m * MINUTE)));
    const opened = await eventsOf(monitor);
    expect(opened.map((e) => e.kind)).to.deep.equal(['incidentOpened', 'reminderDue', 'reminderDue']);
    expect(opened[0]!.subject).to.equal('API is down');
    expect(opened[0]!.payload).to.deep.include({ kind: 'incidentOpened', customerId, organizationId: org.user.organizationId });
    expect(opened[0]!.payload.data).to.deep.include({ failingLocations: ['eu'], reasonCode: 'timeout', monitorPublicId: monitor.publicId });

    const incidentId = opened[0]!.payload.incidentId;
    expect((await api('POST', `/api/incidents/${incidentId}/acknowledge`, { token: org.token })).status).to.equal(200);
    for (let m = 13; m <= 25; m += 1) await record(monitor, 'eu', aResult('down', new Date(t0.getTime() + m * MINUTE)));
    await record(monitor, 'eu', aResult('up', new Date(t0.getTime() + 26 * MINUTE)));
    const kinds = (await eventsOf(monitor)).map((e) => e.kind);
    expect(kinds).to.deep.equal(['incidentOpened', 'reminderDue', 'reminderDue', 'incidentAcknowledged', 'incidentResolved']);
    const detail = await api('GET', `/api/incidents/${incidentId}`, { token: org.token });
    expect(detail.body.timeline.map((e: { kind: string }) => e.kind)).to.deep.equal([
      'opened',
      'locationReport',
      'reminder',
      'reminder',
      'acknowledged',
      'resolved',
    ]);
  });

  it('sends certificate-expiry and blocklist reminders per their own intervals, until an up result', async () => {
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { sslReminderDays: 1, dnsblReminderDays: null });
    const t0 = new Date(testClock.now().getTime() - 3 * 24 * HOUR);
    const expiring = (at: number) =>
      aResult('degraded', new Date(t0.getTime() + at), { reasonCode: 'sslExpiringSoon', message: 'expires in 5 days' });
    await record(monitor, 'eu', expiring(0));
    await record(monitor, 'eu', expiring(HOUR));
    await record(monitor, 'eu', expiring(25 * HOUR));
    await record(monitor, 'eu', aResult('up', new Date(t0.getTime() + 26 * HOUR)));
    await record(monitor, 'eu', expiring(27 * HOUR));
    const listed = (at: number) => aResult('down', new Date(t0.getTime() + at), { reasonCode: 'dnsblListed', message: 'listed on zen' });
    await record(monitor, 'eu', listed(28 * HOUR));
    await record(monitor, 'eu', listed(60 * HOUR));
    const events = (await eventsOf(monitor)).filter((e) => e.kind !== 'incidentOpened');
    expect(events.map((e) => [e.kind, e.payload.data.first])).to.deep.equal([
      ['sslExpiryReminder', true],
      ['sslExpiryReminder', false],
      ['sslExpiryReminder', true],
      ['dnsblReminder', true],
    ]);
    expect(events[0]!.payload.incidentId).to.equal(null);
  });

  it('announces a certificate that expires as sslExpired (certificate.expired) at once, beside the reminders of its approach', async () => {
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { sslReminderDays: 30, dnsblReminderDays: null });
    const t0 = new Date(testClock.now().getTime() - 3 * HOUR);
    await record(monitor, 'eu', aResult('degraded', t0, { reasonCode: 'sslExpiringSoon', message: 'expires in 1 day' }));
    const expired = (at: number) =>
      aResult('down', new Date(t0.getTime() + at), { reasonCode: 'sslExpired', message: 'Certificate expired' });
    await record(monitor, 'eu', expired(HOUR));
    await record(monitor, 'eu', expired(2 * HOUR));
    const events = (await eventsOf(monitor)).filter((e) => e.kind !== 'incidentOpened');
    expect(events.map((e) => [e.kind, e.payload.data.first])).to.deep.equal([
      ['sslExpiryReminder', true],
      ['sslExpired', true],
    ]);
    expect(events[1]!.subject).to.match(/certificate expired$/);
  });
});
