import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { NtfyReceiver } from '../../../support/peers/ntfy-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';

const NTFY_HOST = 'ntfy.ntfy-fixture.com';
const TOKEN = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';

let topicCounter = 0;
const aTopic = (label: string) => `${label}-${++topicCounter}-${Date.now()}`;

/**
 * The ntfy channel type end to end: created over the API, its test message sent by the test button
 * through the ledger and a real worker to a loopback ntfy server that checks the documented JSON
 * publish (reached through the target policy: its name resolves to 127.0.0.1 in the test DNS and
 * CHECK_PRIVATE_ALLOWLIST admits loopback).
 */
describe('ntfy channels (a loopback ntfy server)', () => {
  const ntfy = new NtfyReceiver(NTFY_HOST);
  let service: DeliveryService;
  const { call, createChannel, sendTest, attemptsListed, expectFailedAtOnce, expectRetriedAfter429 } = channelApi(() => service);
  const aChannel = (token: string, config: Record<string, unknown>) => createChannel(token, 'ntfy', config, 'Phones');

  before(async () => {
    await ntfy.start();
    service = await aDeliveryService([NTFY_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await ntfy.stop();
  });

  it("publishes the test message as ntfy's JSON to the server root, its access token as a bearer", async () => {
    const topic = aTopic('ops');
    ntfy.protect(topic, TOKEN);
    const org = await anOrganization('ntfy-test-button');
    const channel = await aChannel(org.token, { url: ntfy.url(), topic, token: TOKEN, messagePrefix: '[prod]' });
    expect(channel.config).to.deep.equal({ url: ntfy.url(), topic, token: TOKEN, messagePrefix: '[prod]' });

    const queued = await sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelId: channel.publicId, channelType: 'ntfy', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 200 });

    const [published, ...more] = ntfy.at(topic);
    expect(more).to.deep.equal([]);
    expect(published!.problems).to.deep.equal([]);
    expect(published).to.deep.include({ method: 'POST', path: '/' });
    expect(published!.headers['content-type']).to.match(/^application\/json/);
    expect(published!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(published!.body).to.deep.equal({
      topic,
      title: '[prod] Test notification',
      message: 'This is a test notification for the channel "Phones": no incident happened. If you can read this, the channel works.',
      priority: 3,
      tags: ['test_tube'],
    });
    expect(await attemptsListed(org.token, channel.publicId)).to.deep.equal([{ status: 'delivered', attempts: [[1, 200, 'delivered']] }]);
    // The token is shown back to whoever may read the channel, as a chat service's secret URL is today;
    // the data export and the audit log redact it (config.token).
    const read = await call('GET', `/api/notification-channels/${channel.id}`, { token: org.token });
    expect(read.body.config).to.deep.equal({ url: ntfy.url(), topic, token: TOKEN, messagePrefix: '[prod]' });
  });

  it('publishes to a public topic without an Authorization header', async () => {
    const topic = aTopic('public');
    const org = await anOrganization('ntfy-public');
    const channel = await aChannel(org.token, { url: ntfy.url(), topic });
    expect(channel.config).to.deep.equal({ url: ntfy.url(), topic, token: null, messagePrefix: null });
    expect((await sendTest(org.token, channel)).status).to.equal('delivered');
    const [published] = ntfy.at(topic);
    expect(published!.problems).to.deep.equal([]);
    expect(published!.headers).to.not.have.property('authorization');
    expect(published!.body).to.deep.include({ topic, title: 'Test notification' });
  });

  it('records a 401 (a wrong token) as a refusal, at once, and the channel degraded', async () => {
    const topic = aTopic('locked');
    ntfy.protect(topic, TOKEN);
    const org = await anOrganization('ntfy-401');
    const channel = await aChannel(org.token, { url: ntfy.url(), topic, token: 'tk_wrong' });
    await expectFailedAtOnce(org.token, channel, 401);
    expect(ntfy.at(topic)).to.have.length(1);
  });

  it('retries a 429 (too many requests), every attempt in the ledger', async () => {
    const topic = aTopic('busy');
    ntfy.answer(topic, { status: 429, headers: { 'retry-after': '1' } });
    const org = await anOrganization('ntfy-429');
    const channel = await aChannel(org.token, { url: ntfy.url(), topic });
    await expectRetriedAfter429(org.token, channel, 200, 'ntfy-429-worker');
    const published = ntfy.at(topic);
    expect(published).to.have.length(2);
    expect(published.flatMap((p) => p.problems)).to.deep.equal([]);
  });
});
