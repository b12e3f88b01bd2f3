import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { anOrganization } from '../../support/builders';
import { aMonitoredCustomer } from '../../support/monitoring-fixtures';
import { waitFor } from '../../support/wait-for';
import { anEngineService, type EngineService } from '../../support/engine-service';
import { WebhookReceiver } from '../../support/peers/webhook-receiver';

const HOOK_HOST = 'hooks.alert-fixture.com';

/**
 * The whole path a user relies on, in one service as `npm start` runs it (check worker, notification
 * worker): a failing loopback target, checked by the engine, opens one incident, whose event reaches a
 * loopback webhook receiver once, signed; recovery sends one resolved message.
 */
describe('alerts end to end: a failing target reaches a webhook, once', () => {
  let service: EngineService;
  let healthy = false;
  const receiver = new WebhookReceiver(HOOK_HOST);
  const received = receiver.requests;
  before(async () => {
    service = await anEngineService({
      respond: (_req, res) => res.writeHead(healthy ? 200 : 503).end(healthy ? 'ok' : 'down'),
      peers: [receiver],
      hosts: [HOOK_HOST],
    });
  });
  after(async () => {
    await service?.stop();
  });

  it('opens one incident for a failing target, delivers one signed incident.opened, and one incident.resolved on recovery', async () => {
    const call = service.call;
    const org = await anOrganization('alert-delivery');
    const customer = await aMonitoredCustomer(org.token);
    const channel = await call('POST', '/api/notification-channels', org.token, {
      name: 'on-call hook',
      type: 'webhook',
      config: { url: receiver.url('/alerts') },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    const site = await call('POST', '/api/websites', org.token, { customerId: customer.id, url: `${service.targetUrl}/` });
    expect(site.status, JSON.stringify(site.body)).to.equal(201);
    const websiteId = site.body.publicId as string;
    const incidents = async (status: string) =>
      (await call('GET', `/api/incidents?status=${status}`, org.token)).body.items as Array<Record<string, any>>;
    const checksRecorded = async () =>
      (await call('GET', `/api/websites/${websiteId}/check-history`, org.token)).body.items.length as number;

    // Each trigger runs one check; the customer's default needs two failures in a row to open.
    for (let done = 1; (await incidents('open')).length === 0; done++) {
      await call('POST', `/api/websites/${websiteId}/trigger-check`, org.token);
      await waitFor(async () => (await checksRecorded()) >= done, { what: `check ${done} recorded` });
      expect(done, 'an incident within five failing checks').to.be.at.most(5);
    }
    await waitFor(() => received.length >= 1, { what: 'the incident.opened webhook' });

    healthy = true;
    const before = await checksRecorded();
    await call('POST', `/api/websites/${websiteId}/trigger-check`, org.token);
    await waitFor(async () => (await checksRecorded()) > before, { what: 'the recovering check' });
    await waitFor(async () => (await incidents('resolved')).length === 1, { what: 'the incident resolved' });
    await waitFor(() => received.length >= 2, { what: 'the incident.resolved webhook' });

    const bodies = received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.event)).to.deep.equal(['incident.opened', 'incident.resolved']);
    expect(bodies[0].customer).to.deep.equal({ id: customer.id });
    // The monitor by its public id (the id the API's paths take), never its internal number.
    for (const body of bodies) expect(body.monitor).to.deep.equal({ id: websiteId });
    for (const request of received) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-webhook-signature']))!;
      expect(v1).to.equal(createHmac('sha256', channel.body.signingSecret).update(`${t}.${request.body}`).digest('hex'));
    }
    expect(await incidents('open')).to.deep.equal([]);
    // The ledger records a delivery once the receiver's answer is in: a moment after the receiver saw it.
    const statuses = async () =>
      (await call('GET', `/api/notification-deliveries?channelId=${channel.body.publicId}`, org.token)).body.items.map(
        (d: { status: string }) => d.status,
      ) as string[];
    await waitFor(async () => !(await statuses()).includes('pending'), { what: 'both deliveries settled' });
    expect(await statuses()).to.deep.equal(['delivered', 'delivered']);
  });
});
