import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { PagerDutyReceiver } from '../../../support/peers/pagerduty-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';

const PAGERDUTY_HOST = 'events.pagerduty-fixture.com';

/** A routing key of the integration key's shape (32 letters and digits), one per test. */
const aRoutingKey = () => randomBytes(16).toString('hex');

/**
 * The PagerDuty channel type end to end: created over the API, its messages sent through the ledger
 * and a real worker to a loopback Events API v2 that checks the documented event (reached through
 * the target policy: its name resolves to 127.0.0.1 in the test DNS and CHECK_PRIVATE_ALLOWLIST
 * admits loopback).
 */
describe('PagerDuty channels (a loopback Events API v2)', () => {
  const pagerduty = new PagerDutyReceiver(PAGERDUTY_HOST);
  let service: DeliveryService;
  const { call, createChannel, sendTest, attemptsListed, expectFailedAtOnce, expectRetriedAfter429 } = channelApi(() => service);
  const aChannel = (token: string, config: Record<string, unknown>) => createChannel(token, 'pagerduty', config, 'On call');

  before(async () => {
    await pagerduty.start();
    service = await aDeliveryService([PAGERDUTY_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await pagerduty.stop();
  });

  it('sends the test message as an Events API v2 trigger of severity info, the routing key in the body', async () => {
    const routingKey = aRoutingKey();
    const org = await anOrganization('pagerduty-test-button');
    const channel = await aChannel(org.token, { routingKey, url: pagerduty.url(), messagePrefix: '[prod]' });
    expect(channel.config).to.deep.equal({ routingKey, url: pagerduty.url(), messagePrefix: '[prod]' });

    const queued = await sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelId: channel.publicId, channelType: 'pagerduty', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 202 });

    const [sent, ...more] = pagerduty.to(routingKey);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent).to.deep.include({ method: 'POST', path: '/v2/enqueue' });
    expect(sent!.headers['content-type']).to.match(/^application\/json/);
    expect(sent!.body).to.deep.equal({
      routing_key: routingKey,
      event_action: 'trigger',
      dedup_key: `test-${queued.id}`,
      payload: {
        summary:
          '[prod] Test notification: This is a test notification for the channel "On call": no incident happened. If you can read this, the channel works.',
        source: 'monitoring-service',
        severity: 'info',
        timestamp: sent!.body!.payload.timestamp,
        class: 'test',
        custom_details: { test: true, channel: { id: channel.publicId, name: 'On call', type: 'pagerduty' } },
      },
      client: 'monitoring-service',
    });
    expect(Date.parse(sent!.body!.payload.timestamp)).to.be.a('number').and.not.NaN;
    expect(await attemptsListed(org.token, channel.publicId)).to.deep.equal([{ status: 'delivered', attempts: [[1, 202, 'delivered']] }]);
  });

  it('defaults the URL to the US endpoint, redacts the routing key in the audit log, refuses one that is not a key', async () => {
    const org = await anOrganization('pagerduty-config');
    const routingKey = aRoutingKey();
    const created = await call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'Default URL', type: 'pagerduty', config: { routingKey } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.config).to.deep.equal({ routingKey, url: 'https://events.pagerduty.com/v2/enqueue', messagePrefix: null });
    // The audit log's trigger redacts the routing key (migration 20270302090000), as it does a chat webhook's URL.
    const audit = await call('GET', '/api/audit-log?perPage=200&resourceType=notificationChannel', { token: org.token });
    expect(audit.status, JSON.stringify(audit.body)).to.equal(200);
    const [entry] = audit.body.items.filter((e: Record<string, any>) => e.action === 'created');
    expect(entry.changes.config.after).to.include({ routingKey: '[redacted]' });
    expect(JSON.stringify(audit.body.items)).to.not.include(routingKey);
    const refused = await call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'Bad key', type: 'pagerduty', config: { routingKey: 'not-a-key' } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ code: 'invalidRequestBody', field: '/config/routingKey', reason: 'notARoutingKey' });
  });

  it("follows an incident: opened triggers, acknowledged acknowledges, resolved resolves, all on the incident's dedup key", async () => {
    const routingKey = aRoutingKey();
    const org = await anOrganization('pagerduty-incident');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1 });
    await aChannel(org.token, { routingKey, url: pagerduty.url() });
    service.worker('pagerduty-incident-worker');
    const sentCount = (n: number, what: string) => waitFor(() => pagerduty.to(routingKey).length >= n, { what, timeoutMs: 10_000 });

    const opened = await call('POST', '/api/incidents', {
      token: org.token,
      body: { monitorId: monitor.publicId, title: 'Checkout failing' },
    });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    const incidentId = opened.body.publicId as string;
    await sentCount(1, 'the opening sent');
    expect((await call('POST', `/api/incidents/${incidentId}/acknowledge`, { token: org.token })).status).to.equal(200);
    await sentCount(2, 'the acknowledgement sent');
    expect((await call('POST', `/api/incidents/${incidentId}/resolve`, { token: org.token })).status).to.equal(200);
    await sentCount(3, 'the resolution sent');

    const events = pagerduty.to(routingKey);
    expect(events.flatMap((e) => e.problems)).to.deep.equal([]);
    expect(events.map((e) => [e.body!.event_action, e.body!.dedup_key])).to.deep.equal([
      ['trigger', `incident-${incidentId}`],
      ['acknowledge', `incident-${incidentId}`],
      ['resolve', `incident-${incidentId}`],
    ]);
    expect(events[0]!.body!.payload).to.deep.include({
      severity: 'critical',
      source: `monitor ${monitor.publicId}`,
      class: 'incident.opened',
    });
    expect(events[0]!.body!.payload.summary).to.match(/^Incident opened: /);
  });

  it('retries a 429 (throttled), every attempt in the ledger', async () => {
    const routingKey = aRoutingKey();
    pagerduty.answer(routingKey, { status: 429 });
    const org = await anOrganization('pagerduty-429');
    const channel = await aChannel(org.token, { routingKey, url: pagerduty.url() });
    await expectRetriedAfter429(org.token, channel, 202, 'pagerduty-429-worker');
    const sent = pagerduty.to(routingKey);
    expect(sent).to.have.length(2);
    expect(sent.flatMap((e) => e.problems)).to.deep.equal([]);
    expect(sent[0]!.body).to.deep.equal(sent[1]!.body);
  });

  it('records a 400 (invalid event) as a failure, at once, and the channel degraded', async () => {
    const routingKey = aRoutingKey();
    pagerduty.answer(routingKey, { status: 400 });
    const org = await anOrganization('pagerduty-400');
    const channel = await aChannel(org.token, { routingKey, url: pagerduty.url() });
    await expectFailedAtOnce(org.token, channel, 400);
    expect(pagerduty.to(routingKey)).to.have.length(1);
  });
});
