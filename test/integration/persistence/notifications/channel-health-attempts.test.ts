import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { OutboxIncidentEvents } from '../../../support/outbox-events';
import { standalone } from '../../../support/unit-of-work';

const HOOK_HOST = 'hooks.health-fixture.com';

/**
 * A channel's health follows its attempts one by one through the real delivery worker, the ledger
 * and a loopback receiver (NOTIFY_CHANNEL_FAILING_AFTER 3, NOTIFY_MAX_ATTEMPTS 6): the first failed
 * attempt makes it degraded, each failed retry lengthens the streak, the third makes it failing (the
 * alert goes to the organization's default channel then, with one channel.failing, without waiting
 * for its last attempt), and the next delivered attempt (a retry of the same alert) makes it healthy.
 */
describe('channel health, attempt by attempt (worker, ledger, loopback receiver)', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  let service: DeliveryService;

  before(async () => {
    await receiver.start();
    // Retries wait 200-400 ms: the round right after an attempt never makes the next one.
    service = await aDeliveryService([HOOK_HOST], {
      NOTIFY_MAX_ATTEMPTS: '6',
      NOTIFY_CHANNEL_FAILING_AFTER: '3',
      NOTIFY_RETRY_BASE_MS: '400',
      NOTIFY_RETRY_MAX_MS: '400',
    });
  });
  after(async () => {
    await service?.stop();
    await receiver.stop();
  });

  it('degraded after one failed attempt and after a failed retry, failing (and falling back) at the third, healthy at the next delivered', async function () {
    this.timeout(120_000);
    const org = await anOrganization('health-attempts');
    const customer = await aMonitoredCustomer(org.token);
    receiver.answer('/primary', { status: 500 }, { status: 503 }, { status: 500 });
    const primary = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'on-call hook', type: 'webhook', config: { url: receiver.url('/primary') } },
    });
    const byDefault = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'noc', type: 'webhook', config: { url: receiver.url('/noc') }, events: ['maintenance.started'], isDefault: true },
    });
    expect([primary.status, byDefault.status]).to.deep.equal([201, 201]);
    await new OutboxIncidentEvents(standalone(service.app.database.sql)).publish({
      kind: 'incidentOpened',
      organizationId: org.user.organizationId,
      customerId: customer.id,
      monitorId: 0,
      incidentPublicId: 'health-inc-1',
      occurredAt: new Date(),
      summary: 'shop is down',
      data: {},
    });
    const worker = service.worker('health', false);
    /**
     * Rounds until the primary receiver got one more attempt (retries wait their back-off, at most
     * 400 ms here; the bound is generous because a loaded CI machine stretches every round).
     */
    const nextAttempt = async () => {
      const before = receiver.at('/primary').length;
      const deadline = Date.now() + 20_000;
      while (receiver.at('/primary').length === before) {
        expect(Date.now(), 'the next attempt within 20 s').to.be.below(deadline);
        await worker.runOnce();
        if (receiver.at('/primary').length === before) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await worker.runOnce(); // the round after: fallbacks and announcements of what the attempt settled
    };
    const health = async () => {
      const { health: h } = (await api('GET', `/api/notification-channels/${primary.body.publicId}`, { token: org.token })).body;
      return { status: h.status, consecutiveFailures: h.consecutiveFailures };
    };
    const atDefault = () => receiver.at('/noc').map((r) => JSON.parse(r.body).event as string);

    await nextAttempt();
    expect(await health(), 'the first failed attempt').to.deep.equal({ status: 'degraded', consecutiveFailures: 1 });
    expect(atDefault()).to.deep.equal([]);
    await nextAttempt();
    expect(await health(), 'a failed retry').to.deep.equal({ status: 'degraded', consecutiveFailures: 2 });
    expect(atDefault()).to.deep.equal([]);
    await nextAttempt();
    expect(await health(), 'the third failed attempt').to.deep.equal({ status: 'failing', consecutiveFailures: 3 });
    await worker.runOnce();
    expect(atDefault().sort(), 'the alert and the announcement at the default channel, three attempts of six made').to.deep.equal([
      'channel.failing',
      'incident.opened',
    ]);

    await nextAttempt();
    expect(await health(), 'the retry delivered').to.deep.equal({ status: 'healthy', consecutiveFailures: 0 });
    const deliveries = (await api('GET', `/api/notification-deliveries?channelId=${primary.body.publicId}`, { token: org.token })).body
      .items;
    expect(deliveries.map((d: { status: string; attempts: unknown[] }) => [d.status, d.attempts.length])).to.deep.equal([['delivered', 4]]);
    expect(atDefault(), 'nothing more at the default channel').to.have.length(2);
  });
});
