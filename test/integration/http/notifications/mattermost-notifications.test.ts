import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { MattermostReceiver } from '../../../support/peers/mattermost-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';

const MATTERMOST_HOST = 'chat.mattermost-fixture.com';

let hookCounter = 0;
const aHookId = (label: string) => `${label}${++hookCounter}x${Date.now()}`;

/**
 * The Mattermost channel type end to end: created over the API, its test message sent through the
 * ledger and a real worker to a loopback Mattermost that checks the documented incoming-webhook
 * request (reached through the target policy: its name resolves to 127.0.0.1 in the test DNS and
 * CHECK_PRIVATE_ALLOWLIST admits loopback).
 */
describe('Mattermost channels (a loopback Mattermost incoming webhook)', () => {
  const mattermost = new MattermostReceiver(MATTERMOST_HOST);
  let service: DeliveryService;
  const api = channelApi(() => service);

  before(async () => {
    await mattermost.start();
    service = await aDeliveryService([MATTERMOST_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await mattermost.stop();
  });

  it("posts the test message as {text} in Markdown to the webhook's channel", async () => {
    const hook = aHookId('test');
    const url = mattermost.hook(hook, 'town-square');
    const org = await anOrganization('mattermost-test-button');
    const channel = await api.createChannel(org.token, 'mattermost', { url, messagePrefix: '[prod]' }, 'Ops');
    expect(channel.config).to.deep.equal({ url, channel: null, messagePrefix: '[prod]' });

    const queued = await api.sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelType: 'mattermost', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 200 });
    const [sent, ...more] = mattermost.at(hook);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent).to.deep.include({ method: 'POST', path: `/hooks/${hook}` });
    expect(sent!.body).to.deep.equal({
      text: '**[prod] Test notification**\nThis is a test notification for the channel "Ops": no incident happened. If you can read this, the channel works.',
    });
    expect(mattermost.posts.filter((p) => p.hook === hook).map((p) => p.channel)).to.deep.equal(['town-square']);
  });

  it('posts to the channel that overrides the webhook’s own; one Mattermost does not have fails as 404', async () => {
    const hook = aHookId('override');
    const url = mattermost.hook(hook, 'town-square');
    const org = await anOrganization('mattermost-override');
    const channel = await api.createChannel(org.token, 'mattermost', { url, channel: 'off-topic' });
    expect(channel.config).to.include({ channel: 'off-topic' });
    expect((await api.sendTest(org.token, channel)).status).to.equal('delivered');
    expect(mattermost.at(hook)[0]!.body).to.include({ channel: 'off-topic' });
    expect(mattermost.posts.filter((p) => p.hook === hook).map((p) => p.channel)).to.deep.equal(['off-topic']);

    const missing = await api.createChannel(org.token, 'mattermost', {
      url: mattermost.hook(aHookId('missing')),
      channel: 'no-such-channel',
    });
    await api.expectFailedAtOnce(org.token, missing, 404);
  });

  it('records a 401 as a refusal, at once, and the channel degraded', async () => {
    const hook = aHookId('locked');
    mattermost.answer(hook, { status: 401 });
    const org = await anOrganization('mattermost-401');
    const channel = await api.createChannel(org.token, 'mattermost', { url: mattermost.hook(hook) });
    await api.expectFailedAtOnce(org.token, channel, 401);
    expect(mattermost.at(hook)).to.have.length(1);
  });

  it('retries a 429 (too many requests), every attempt in the ledger', async () => {
    const hook = aHookId('busy');
    mattermost.answer(hook, { status: 429, headers: { 'retry-after': '1' } });
    const org = await anOrganization('mattermost-429');
    const channel = await api.createChannel(org.token, 'mattermost', { url: mattermost.hook(hook) });
    await api.expectRetriedAfter429(org.token, channel, 200, 'mattermost-429-worker');
    const sent = mattermost.at(hook);
    expect(sent).to.have.length(2);
    expect(sent.flatMap((r) => r.problems)).to.deep.equal([]);
  });
});
