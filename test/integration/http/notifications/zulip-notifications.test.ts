import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { ZulipReceiver } from '../../../support/peers/zulip-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';

const ZULIP_HOST = 'chat.zulip-fixture.com';
const BOT = 'alerts-bot@chat.zulip-fixture.com';
const KEY = 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5';

let streamCounter = 0;
const aStream = (label: string) => `${label} ${++streamCounter}-${Date.now()}`;

/**
 * The Zulip channel type end to end: created over the API, its test message sent through the ledger
 * and a real worker to a loopback Zulip that checks the documented send-message form (reached through
 * the target policy: its name resolves to 127.0.0.1 in the test DNS and CHECK_PRIVATE_ALLOWLIST
 * admits loopback).
 */
describe('Zulip channels (a loopback Zulip server)', () => {
  const zulip = new ZulipReceiver(ZULIP_HOST);
  let service: DeliveryService;
  const api = channelApi(() => service);
  const configFor = (stream: string, over: Record<string, unknown> = {}) => ({
    url: zulip.url(),
    botEmail: BOT,
    apiKey: KEY,
    stream,
    streamTopic: 'alerts',
    ...over,
  });

  before(async () => {
    await zulip.start();
    service = await aDeliveryService([ZULIP_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await zulip.stop();
  });

  it('sends the test message as a form to /api/v1/messages, the bot as HTTP Basic', async () => {
    const stream = aStream('Ops & Infra');
    zulip.channel(stream, BOT, KEY);
    const org = await anOrganization('zulip-test-button');
    const channel = await api.createChannel(org.token, 'zulip', configFor(stream, { messagePrefix: '[prod]' }), 'Ops');
    expect(channel.config).to.deep.equal(configFor(stream, { messagePrefix: '[prod]' }));

    const queued = await api.sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelType: 'zulip', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 200 });
    const [sent, ...more] = zulip.at(stream);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent).to.deep.include({ method: 'POST', path: '/api/v1/messages' });
    expect(sent!.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    expect(sent!.headers.authorization).to.equal(`Basic ${Buffer.from(`${BOT}:${KEY}`).toString('base64')}`);
    expect(sent!.body).to.deep.equal({
      type: 'stream',
      to: stream,
      topic: 'alerts',
      content:
        '**[prod] Test notification**\nThis is a test notification for the channel "Ops": no incident happened. If you can read this, the channel works.',
    });
    // The form is encoded as Zulip decodes it: the channel's & and spaces arrive whole.
    expect(sent!.raw).to.include(`to=${encodeURIComponent(stream).replace(/%20/g, '+')}`);
  });

  it('redacts the API key in the audit log and refuses one that is not a key', async () => {
    const org = await anOrganization('zulip-config');
    await api.createChannel(org.token, 'zulip', configFor(aStream('audit')));
    const audit = await api.call('GET', '/api/audit-log?perPage=200&resourceType=notificationChannel', { token: org.token });
    expect(audit.status, JSON.stringify(audit.body)).to.equal(200);
    const [entry] = audit.body.items.filter((e: Record<string, any>) => e.action === 'created');
    expect(entry.changes.config.after).to.include({ apiKey: '[redacted]' });
    expect(JSON.stringify(audit.body.items)).to.not.include(KEY);
    const refused = await api.call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'Bad', type: 'zulip', config: configFor(aStream('bad'), { apiKey: 'short' }) },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ code: 'invalidRequestBody', field: '/config/apiKey', reason: 'notAnApiKey' });
  });

  it('records a 401 (an API key Zulip does not know) as a refusal, at once, and the channel degraded', async () => {
    const stream = aStream('locked');
    zulip.channel(stream, BOT, KEY);
    const org = await anOrganization('zulip-401');
    const channel = await api.createChannel(org.token, 'zulip', configFor(stream, { apiKey: 'Z'.repeat(32) }));
    await api.expectFailedAtOnce(org.token, channel, 401);
    expect(zulip.at(stream)).to.have.length(1);
  });

  it('records a channel Zulip does not have (400) as a failure', async () => {
    const stream = aStream('missing');
    zulip.protect(stream, `${BOT}:${KEY}`);
    const org = await anOrganization('zulip-400');
    const channel = await api.createChannel(org.token, 'zulip', configFor(stream));
    await api.expectFailedAtOnce(org.token, channel, 400);
    expect(zulip.at(stream)[0]!.problems).to.deep.equal([]);
  });

  it('retries a 429 (RATE_LIMIT_HIT), every attempt in the ledger', async () => {
    const stream = aStream('busy');
    zulip.channel(stream, BOT, KEY);
    zulip.answer(stream, { status: 429, headers: { 'retry-after': '1' } });
    const org = await anOrganization('zulip-429');
    const channel = await api.createChannel(org.token, 'zulip', configFor(stream));
    await api.expectRetriedAfter429(org.token, channel, 200, 'zulip-429-worker');
    const sent = zulip.at(stream);
    expect(sent).to.have.length(2);
    expect(sent.flatMap((r) => r.problems)).to.deep.equal([]);
  });
});
