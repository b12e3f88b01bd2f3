import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { PushoverReceiver } from '../../../support/peers/pushover-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';

const HOST = 'api.pushover-fixture.com';
const APP_TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';

let counter = 0;
/** A user key of its own per test: 30 letters and digits. */
const aUserKey = () => `u${Date.now().toString(36)}${String(++counter).padStart(4, '0')}`.padEnd(30, 'Q').slice(0, 30);

/**
 * The pushover channel type end to end: created over the API, its test message and a manual
 * critical alert sent through the ledger to a loopback Message API checking the documented
 * parameters (keys, limits, priority 2's retry and expire), through the target policy.
 */
describe('pushover channels (a loopback Pushover Message API)', () => {
  const pushover = new PushoverReceiver(HOST);
  let service: DeliveryService;
  const api = channelApi(() => service);
  const aChannel = (token: string, config: Record<string, unknown>) => api.createChannel(token, 'pushover', config, 'Phones');

  before(async () => {
    await pushover.start();
    service = await aDeliveryService([HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await pushover.stop();
  });

  it('posts the test message as JSON to /1/messages.json, both keys in the body, normal priority', async () => {
    const user = aUserKey();
    pushover.protect(user, APP_TOKEN);
    const org = await anOrganization('pushover-test');
    const channel = await aChannel(org.token, { appToken: APP_TOKEN, userKey: user, url: pushover.messagesUrl(), messagePrefix: '[prod]' });
    expect(channel.config).to.deep.equal({ appToken: APP_TOKEN, userKey: user, url: pushover.messagesUrl(), messagePrefix: '[prod]' });

    const queued = await api.sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelType: 'pushover', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 200 });

    const [posted, ...more] = pushover.at(user);
    expect(more).to.deep.equal([]);
    expect(posted!.problems).to.deep.equal([]);
    expect(posted).to.deep.include({ method: 'POST', path: '/1/messages.json' });
    expect(posted!.headers).to.not.have.property('authorization');
    expect(posted!.body).to.deep.include({ token: APP_TOKEN, user, title: '[prod] Test notification', priority: 0 });
    expect(posted!.body!.message).to.match(/^This is a test notification for the channel "Phones"/);
    expect(posted!.body!.timestamp).to.be.a('number');
    expect(await api.attemptsListed(org.token, channel.publicId)).to.deep.equal([
      { status: 'delivered', attempts: [[1, 200, 'delivered']] },
    ]);
  });

  it('sends a critical manual alert as an emergency (priority 2) with the retry and expire Pushover requires', async () => {
    const user = aUserKey();
    const org = await anOrganization('pushover-emergency');
    const channel = await aChannel(org.token, { appToken: APP_TOKEN, userKey: user, url: pushover.messagesUrl() });
    const sent = await api.call('POST', '/api/notifications/send-alert', {
      token: org.token,
      body: { title: 'Datacenter power lost', message: 'Generators failed.', severity: 'critical', channelIds: [channel.id] },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    service.worker('pushover-emergency-worker');
    await waitFor(async () => pushover.at(user).length > 0, { what: 'the alert posted' });
    const [posted] = pushover.at(user);
    expect(posted!.problems).to.deep.equal([]);
    expect(posted!.body).to.deep.include({
      priority: 2,
      retry: 60,
      expire: 3600,
      title: 'Critical alert',
      message: 'Datacenter power lost\n\nGenerators failed.',
    });
  });

  it('records a refused application token (Pushover’s 400, status 0) as a failure, at once, in the ledger and health', async () => {
    const user = aUserKey();
    pushover.protect(user, APP_TOKEN);
    const org = await anOrganization('pushover-bad-token');
    const channel = await aChannel(org.token, { appToken: 'a'.repeat(30), userKey: user, url: pushover.messagesUrl() });
    await api.expectFailedAtOnce(org.token, channel, 400);
  });

  it('records a 401 as a refusal and retries a 429 (Retry-After) until delivered', async () => {
    const refusedUser = aUserKey();
    pushover.answer(refusedUser, { status: 401, body: { status: 0, errors: ['unauthorized'] } });
    const org = await anOrganization('pushover-401-429');
    const refused = await aChannel(org.token, { appToken: APP_TOKEN, userKey: refusedUser, url: pushover.messagesUrl() });
    await api.expectFailedAtOnce(org.token, refused, 401);

    const busyUser = aUserKey();
    pushover.answer(busyUser, { status: 429, headers: { 'retry-after': '1' }, body: { status: 0, errors: ['over quota'] } });
    const busy = await aChannel(org.token, { appToken: APP_TOKEN, userKey: busyUser, url: pushover.messagesUrl() });
    await api.expectRetriedAfter429(org.token, busy, 200, 'pushover-429-worker');
  });

  it('refuses a malformed user key over the API, naming the field', async () => {
    const org = await anOrganization('pushover-refuse');
    const refused = await api.call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'pushover', config: { appToken: APP_TOKEN, userKey: 'someone@example.com' } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ field: '/config/userKey', reason: 'notAUserKey' });
  });
});
