import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { GotifyReceiver } from '../../../support/peers/gotify-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';

const GOTIFY_HOST = 'push.gotify-fixture.com';

let tokenCounter = 0;
const aToken = () => `AbC${++tokenCounter}x${Date.now()}`;

/**
 * The Gotify channel type end to end: created over the API, its test message sent through the ledger
 * and a real worker to a loopback Gotify server (behind a path, as behind a proxy) that checks the
 * documented POST /message (reached through the target policy: its name resolves to 127.0.0.1 in the
 * test DNS and CHECK_PRIVATE_ALLOWLIST admits loopback).
 */
describe('Gotify channels (a loopback Gotify server)', () => {
  const gotify = new GotifyReceiver(GOTIFY_HOST, '/gotify');
  let service: DeliveryService;
  const api = channelApi(() => service);

  before(async () => {
    await gotify.start();
    service = await aDeliveryService([GOTIFY_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await gotify.stop();
  });

  it('pushes the test message as {title, message, priority} to <server>/message, the token as X-Gotify-Key', async () => {
    const apiToken = aToken();
    gotify.accept(apiToken);
    const org = await anOrganization('gotify-test-button');
    const channel = await api.createChannel(org.token, 'gotify', { url: gotify.serverUrl(), apiToken, messagePrefix: '[prod]' }, 'Phones');
    expect(channel.config).to.deep.equal({ url: gotify.serverUrl(), apiToken, messagePrefix: '[prod]' });

    const queued = await api.sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelType: 'gotify', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 200 });
    const [sent, ...more] = gotify.at(apiToken);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent).to.deep.include({ method: 'POST', path: '/gotify/message' });
    expect(sent!.headers['x-gotify-key']).to.equal(apiToken);
    expect(sent!.body).to.deep.equal({
      title: '[prod] Test notification',
      message: 'This is a test notification for the channel "Phones": no incident happened. If you can read this, the channel works.',
      priority: 5,
    });
  });

  it('redacts the application token in the audit log and refuses one that cannot be a header', async () => {
    const org = await anOrganization('gotify-config');
    const apiToken = aToken();
    await api.createChannel(org.token, 'gotify', { url: gotify.serverUrl(), apiToken });
    const audit = await api.call('GET', '/api/audit-log?perPage=200&resourceType=notificationChannel', { token: org.token });
    expect(audit.status, JSON.stringify(audit.body)).to.equal(200);
    const [entry] = audit.body.items.filter((e: Record<string, any>) => e.action === 'created');
    expect(entry.changes.config.after).to.include({ apiToken: '[redacted]' });
    expect(JSON.stringify(audit.body.items)).to.not.include(apiToken);
    const refused = await api.call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'Bad', type: 'gotify', config: { url: gotify.serverUrl(), apiToken: 'a b\r\nX-Evil: 1' } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ code: 'invalidRequestBody', field: '/config/apiToken', reason: 'badToken' });
  });

  it('records a 401 (a token Gotify does not know) as a refusal, at once, and the channel degraded', async () => {
    const apiToken = aToken();
    const org = await anOrganization('gotify-401');
    const channel = await api.createChannel(org.token, 'gotify', { url: gotify.serverUrl(), apiToken });
    await api.expectFailedAtOnce(org.token, channel, 401);
    expect(gotify.at(apiToken)).to.have.length(1);
  });

  it('retries a 429 (too many requests), every attempt in the ledger', async () => {
    const apiToken = aToken();
    gotify.accept(apiToken);
    gotify.answer(apiToken, { status: 429, headers: { 'retry-after': '1' } });
    const org = await anOrganization('gotify-429');
    const channel = await api.createChannel(org.token, 'gotify', { url: gotify.serverUrl(), apiToken });
    await api.expectRetriedAfter429(org.token, channel, 200, 'gotify-429-worker');
    const sent = gotify.at(apiToken);
    expect(sent).to.have.length(2);
    expect(sent.flatMap((r) => r.problems)).to.deep.equal([]);
  });
});
