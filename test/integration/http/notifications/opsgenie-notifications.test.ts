import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { OpsgenieReceiver } from '../../../support/peers/opsgenie-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';

const OPSGENIE_HOST = 'api.opsgenie-fixture.com';

/**
 * The Opsgenie channel type end to end: created over the API, its messages sent through the ledger
 * and a real worker to a loopback Alert API that checks the documented requests (reached through the
 * target policy: its name resolves to 127.0.0.1 in the test DNS and CHECK_PRIVATE_ALLOWLIST admits
 * loopback).
 */
describe('Opsgenie channels (a loopback Alert API)', () => {
  const opsgenie = new OpsgenieReceiver(OPSGENIE_HOST);
  let service: DeliveryService;
  const api = channelApi(() => service);
  /** An API key Opsgenie accepts, one per test. */
  const anApiKey = () => {
    const key = randomUUID();
    opsgenie.accept(key);
    return key;
  };

  before(async () => {
    await opsgenie.start();
    service = await aDeliveryService([OPSGENIE_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await opsgenie.stop();
  });

  it('creates an alert for the test message: P5, aliased by the delivery, the key as GenieKey', async () => {
    const apiKey = anApiKey();
    const org = await anOrganization('opsgenie-test-button');
    const channel = await api.createChannel(org.token, 'opsgenie', { apiKey, url: opsgenie.url(), messagePrefix: '[prod]' }, 'On call');
    expect(channel.config).to.deep.equal({ apiKey, url: opsgenie.url(), messagePrefix: '[prod]' });

    const queued = await api.sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelId: channel.publicId, channelType: 'opsgenie', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 202 });
    const [sent, ...more] = opsgenie.at(apiKey);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent).to.deep.include({ method: 'POST', path: '/v2/alerts' });
    expect(sent!.headers.authorization).to.equal(`GenieKey ${apiKey}`);
    expect(sent!.body).to.deep.equal({
      message:
        '[prod] Test notification: This is a test notification for the channel "On call": no incident happened. If you can read this, the …',
      alias: `test-${queued.id}`,
      description: 'This is a test notification for the channel "On call": no incident happened. If you can read this, the channel works.',
      priority: 'P5',
      tags: ['monitoring-service', 'test'],
      source: 'monitoring-service',
      details: { event: 'test', occurredAt: sent!.body!.details.occurredAt },
    });
    expect(sent!.body!.message).to.have.length(130);
    expect(opsgenie.alerts.get(`test-${queued.id}`)).to.deep.equal({ status: 'open', count: 1, priority: 'P5' });
  });

  it('defaults the URL to the US host, redacts the API key in the audit log, refuses one that is not a key', async () => {
    const org = await anOrganization('opsgenie-config');
    const apiKey = randomUUID();
    const created = await api.createChannel(org.token, 'opsgenie', { apiKey }, 'Default host');
    expect(created.config).to.deep.equal({ apiKey, url: 'https://api.opsgenie.com/', messagePrefix: null });
    const audit = await api.call('GET', '/api/audit-log?perPage=200&resourceType=notificationChannel', { token: org.token });
    expect(audit.status, JSON.stringify(audit.body)).to.equal(200);
    const [entry] = audit.body.items.filter((e: Record<string, any>) => e.action === 'created');
    expect(entry.changes.config.after).to.include({ apiKey: '[redacted]' });
    expect(JSON.stringify(audit.body.items)).to.not.include(apiKey);
    const refused = await api.call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'Bad key', type: 'opsgenie', config: { apiKey: 'not-a-key' } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ code: 'invalidRequestBody', field: '/config/apiKey', reason: 'notAnApiKey' });
  });

  it("follows an incident: opened creates the alert, acknowledged acknowledges it and resolved closes it, by the incident's alias", async () => {
    const apiKey = anApiKey();
    const org = await anOrganization('opsgenie-incident');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1 });
    await api.createChannel(org.token, 'opsgenie', { apiKey, url: opsgenie.url() });
    service.worker('opsgenie-incident-worker');
    const sentCount = (n: number, what: string) => waitFor(() => opsgenie.at(apiKey).length >= n, { what, timeoutMs: 10_000 });

    const opened = await api.call('POST', '/api/incidents', {
      token: org.token,
      body: { monitorId: monitor.publicId, title: 'Checkout failing' },
    });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    const incidentId = opened.body.publicId as string;
    const alias = `incident-${incidentId}`;
    await sentCount(1, 'the opening sent');
    expect(opsgenie.alerts.get(alias)).to.include({ status: 'open', priority: 'P1' });
    expect((await api.call('POST', `/api/incidents/${incidentId}/acknowledge`, { token: org.token })).status).to.equal(200);
    await sentCount(2, 'the acknowledgement sent');
    expect(opsgenie.alerts.get(alias)).to.include({ status: 'acknowledged' });
    expect((await api.call('POST', `/api/incidents/${incidentId}/resolve`, { token: org.token })).status).to.equal(200);
    await sentCount(3, 'the resolution sent');
    expect(opsgenie.alerts.get(alias)).to.include({ status: 'closed', count: 1 });

    const requests = opsgenie.at(apiKey);
    expect(requests.flatMap((r) => r.problems)).to.deep.equal([]);
    expect(requests.map((r) => r.path)).to.deep.equal([
      '/v2/alerts',
      `/v2/alerts/${alias}/acknowledge?identifierType=alias`,
      `/v2/alerts/${alias}/close?identifierType=alias`,
    ]);
    expect(requests[0]!.body!.message).to.match(/^Incident opened: /);
    expect(requests[2]!.body).to.have.keys('source', 'note');
  });

  it('records a 401 (a key Opsgenie does not know) as a refusal, at once, and the channel degraded', async () => {
    const apiKey = randomUUID();
    const org = await anOrganization('opsgenie-401');
    const channel = await api.createChannel(org.token, 'opsgenie', { apiKey, url: opsgenie.url() });
    await api.expectFailedAtOnce(org.token, channel, 401);
    expect(opsgenie.at(apiKey)).to.have.length(1);
  });

  it('retries a 429 (too many requests), every attempt in the ledger', async () => {
    const apiKey = anApiKey();
    opsgenie.answer(apiKey, { status: 429, headers: { 'retry-after': '1' } });
    const org = await anOrganization('opsgenie-429');
    const channel = await api.createChannel(org.token, 'opsgenie', { apiKey, url: opsgenie.url() });
    await api.expectRetriedAfter429(org.token, channel, 202, 'opsgenie-429-worker');
    const sent = opsgenie.at(apiKey);
    expect(sent).to.have.length(2);
    expect(sent.flatMap((r) => r.problems)).to.deep.equal([]);
    expect(sent[0]!.body).to.deep.equal(sent[1]!.body);
  });
});
