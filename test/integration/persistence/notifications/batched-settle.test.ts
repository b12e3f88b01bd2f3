import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { testServer } from '../../../support/test-server';
import { SqlDeliveryLedger } from '../../../../src/infrastructure/notifications/sql-delivery-ledger';
import type { DeliveryAttempt, Settlement } from '../../../../src/application/notifications/ports';
import { sql } from '../../../../src/infrastructure/persistence/sql';

async function aWebhook(token: string, path: string): Promise<Record<string, any>> {
  const response = await api('POST', '/api/notification-channels', {
    token,
    body: { name: path, type: 'webhook', config: { url: `https://hooks.settle-fixture.com/${path}` } },
  });
  if (response.status !== 201) throw new Error(`channel create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** `count` manual alerts to the organization's channels: their delivery ids, oldest first, leased by `owner`. */
async function leasedAlerts(token: string, organizationId: number, count: number, owner: string): Promise<string[]> {
  const { database } = await testServer();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const sent = await api('POST', '/api/notifications/send-alert', {
      token,
      body: { title: `Alert ${i}`, message: 'Generators on.', severity: 'info' },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    ids.push(...(sent.body.deliveries as Array<{ id: string }>).map((d) => d.id));
  }
  await database.sql.query(
    sql`UPDATE notification_deliveries SET lease_owner = ${owner}, lease_until = now() + interval '1 minute' WHERE organization_id = ${organizationId}`,
  );
  return ids;
}

const at = (second: number) => new Date(Date.UTC(2026, 11, 14, 10, 0, second));
const attempt = (outcome: DeliveryAttempt['outcome'], statusCode: number | null, second: number): DeliveryAttempt => ({
  attempt: 1,
  at: at(second),
  statusCode,
  outcome,
  responseExcerpt: statusCode === null ? null : `answer ${statusCode}`,
  latencyMs: 7.6,
  error: statusCode === null ? 'No answer' : null,
});
const delivered = (deliveryId: string, second: number): Settlement => ({
  deliveryId,
  attempt: attempt('delivered', 200, second),
  next: { status: 'delivered' },
});
const retried = (deliveryId: string, second: number, statusCode: number | null = 503): Settlement => ({
  deliveryId,
  attempt: attempt('retry', statusCode, second),
  next: { status: 'pending', nextAttemptAt: at(59), channelFault: true, fallBack: false },
});

/** Settling a batch of attempts in one statement keeps every rule of one settle per delivery. */
describe('batched settle (SqlDeliveryLedger.settleMany on PostgreSQL)', () => {
  it('keeps the lease fence per row: a delivery another worker re-claimed is neither changed nor counted, the others are settled', async () => {
    const { database } = await testServer();
    const ledger = new SqlDeliveryLedger(database.sql);
    const org = await anOrganization('settle-fence');
    const hook = await aWebhook(org.token, 'fence');
    const [a, b, c] = await leasedAlerts(org.token, org.user.organizationId, 3, 'w1');
    // w1's lease on b lapsed and w2 claimed it again: w1's late settle must not overwrite w2's claim.
    await database.sql.query(
      sql`UPDATE notification_deliveries SET lease_owner = 'w2', lease_until = now() + interval '1 minute' WHERE id = ${b}`,
    );

    const settled = await ledger.settleMany('w1', [delivered(a!, 1), delivered(b!, 2), retried(c!, 3)]);
    expect([...settled].sort()).to.deep.equal([a!, c!].sort());
    const rows = await database.sql.query<Record<string, any>>(
      sql`SELECT d.id::text, d.status, d.attempts, d.lease_owner, (SELECT count(*)::int FROM notification_delivery_attempts x WHERE x.delivery_id = d.id) AS tries
         FROM notification_deliveries d WHERE organization_id = ${org.user.organizationId}`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(a)).to.deep.include({ status: 'delivered', attempts: 1, lease_owner: null, tries: 1 });
    expect(byId.get(b), "w2's claim stands, nothing recorded").to.deep.include({
      status: 'pending',
      attempts: 0,
      lease_owner: 'w2',
      tries: 0,
    });
    expect(byId.get(c)).to.deep.include({ status: 'pending', attempts: 1, lease_owner: null, tries: 1 });
    const channel = (await api('GET', `/api/notification-channels/${hook.publicId}`, { token: org.token })).body;
    expect(channel.health, "b's attempt did not count: one delivered, then one failed").to.include({ consecutiveFailures: 1 });

    expect((await ledger.settleMany('w1', [delivered(a!, 4), retried(c!, 5)])).size, 'settled already: nothing twice').to.equal(0);
    expect((await ledger.settleMany('w2', [])).size).to.equal(0);
  });

  it("moves a channel's health as one settle after another would, in the order given", async () => {
    const { database } = await testServer();
    const ledger = new SqlDeliveryLedger(database.sql);
    const org = await anOrganization('settle-health');
    const hook = await aWebhook(org.token, 'health');
    const ids = await leasedAlerts(org.token, org.user.organizationId, 6, 'w1');
    const failingSince = new Date('2026-12-14T09:00:00Z');
    await database.sql.query(
      sql`UPDATE notification_channels SET consecutive_failures = 4, failing_since = ${failingSince} WHERE public_id = ${hook.publicId}`,
    );
    const health = async () =>
      (
        await database.sql.query<Record<string, any>>(
          sql`SELECT consecutive_failures, last_success_at, last_failure_at, last_failure_reason, failing_since FROM notification_channels WHERE public_id = ${hook.publicId}`,
        )
      )[0];

    // Two more failures with no delivery: the streak grows by two, the failing mark stays, the last failure's reason is kept.
    await ledger.settleMany('w1', [retried(ids[0]!, 1, 500), retried(ids[1]!, 2, null)]);
    expect(await health()).to.deep.equal({
      consecutive_failures: 6,
      last_success_at: null,
      last_failure_at: at(2),
      last_failure_reason: 'No answer',
      failing_since: failingSince,
    });

    // Failed, delivered, failed, and a give-up of the service's own (no channel fault): the delivery reset the streak, one failure after it counts.
    const disabled: Settlement = {
      deliveryId: ids[5]!,
      attempt: { ...attempt('failed', null, 9), error: 'The channel is disabled' },
      next: { status: 'failed', reason: 'The channel is disabled', channelFault: false, fallBack: false },
    };
    await ledger.settleMany('w1', [retried(ids[2]!, 3, 502), delivered(ids[3]!, 4), retried(ids[4]!, 5, 429), disabled]);
    expect(await health()).to.deep.equal({
      consecutive_failures: 1,
      last_success_at: at(4),
      last_failure_at: at(5),
      last_failure_reason: 'Answered 429',
      failing_since: null,
    });
  });
});
