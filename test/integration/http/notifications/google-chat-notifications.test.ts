import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { GoogleChatReceiver } from '../../../support/peers/google-chat-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';

const CHAT_HOST = 'chat.googleapis-fixture.com';
const TOKEN = 'w3bh00k-t0ken_x';

let spaceCounter = 0;
const aSpace = (label: string) => `${label}${++spaceCounter}${Date.now()}`;

/**
 * The Google Chat channel type end to end: created over the API, its messages sent through the ledger
 * and a real worker to a loopback Chat that checks the documented incoming-webhook request (reached
 * through the target policy: its name resolves to 127.0.0.1 in the test DNS and
 * CHECK_PRIVATE_ALLOWLIST admits loopback).
 */
describe('Google Chat channels (a loopback Chat incoming webhook)', () => {
  const chat = new GoogleChatReceiver(CHAT_HOST);
  let service: DeliveryService;
  const api = channelApi(() => service);

  before(async () => {
    await chat.start();
    service = await aDeliveryService([CHAT_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await chat.stop();
  });

  it("posts the test message as {text} in Chat's formatting to the space's webhook URL", async () => {
    const space = aSpace('AAAAtest');
    chat.protect(space, TOKEN);
    const url = chat.webhookUrl(space, TOKEN);
    const org = await anOrganization('gchat-test-button');
    const channel = await api.createChannel(org.token, 'google-chat', { url, messagePrefix: '[prod]' }, 'Ops space');
    expect(channel.config).to.deep.equal({ url, messagePrefix: '[prod]' });

    const queued = await api.sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelType: 'google-chat', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 200 });
    const [sent, ...more] = chat.at(space);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent!.method).to.equal('POST');
    expect(sent!.query.get('token')).to.equal(TOKEN);
    expect(sent!.query.has('threadKey')).to.equal(false);
    expect(sent!.body).to.deep.equal({
      text: '*[prod] Test notification*\nThis is a test notification for the channel "Ops space": no incident happened. If you can read this, the channel works.',
    });
  });

  it("threads an incident's messages: opened and resolved reply in the incident's thread", async () => {
    const space = aSpace('AAAAinc');
    chat.protect(space, TOKEN);
    const org = await anOrganization('gchat-incident');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1 });
    await api.createChannel(org.token, 'google-chat', { url: chat.webhookUrl(space, TOKEN) });
    service.worker('gchat-incident-worker');

    const opened = await api.call('POST', '/api/incidents', {
      token: org.token,
      body: { monitorId: monitor.publicId, title: 'Checkout failing' },
    });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    const incidentId = opened.body.publicId as string;
    await waitFor(() => chat.at(space).length >= 1, { what: 'the opening sent', timeoutMs: 10_000 });
    expect((await api.call('POST', `/api/incidents/${incidentId}/resolve`, { token: org.token })).status).to.equal(200);
    await waitFor(() => chat.at(space).length >= 2, { what: 'the resolution sent', timeoutMs: 10_000 });

    const sent = chat.at(space);
    expect(sent.flatMap((r) => r.problems)).to.deep.equal([]);
    expect(sent.map((r) => r.query.get('messageReplyOption'))).to.deep.equal([
      'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD',
      'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD',
    ]);
    expect(chat.threads.get(space)).to.deep.equal([`incident-${incidentId}`, `incident-${incidentId}`]);
    expect(sent.map((r) => (r.body!.text as string).split('\n')[0])).to.deep.equal(['*Incident opened*', '*Incident resolved*']);
  });

  it('records a 401 (a webhook token Chat does not know) as a refusal, at once, and the channel degraded', async () => {
    const space = aSpace('AAAAlocked');
    chat.protect(space, TOKEN);
    const org = await anOrganization('gchat-401');
    const channel = await api.createChannel(org.token, 'google-chat', { url: chat.webhookUrl(space, 'revoked-token') });
    await api.expectFailedAtOnce(org.token, channel, 401);
    expect(chat.at(space)).to.have.length(1);
  });

  it('retries a 429 (RESOURCE_EXHAUSTED), every attempt in the ledger', async () => {
    const space = aSpace('AAAAbusy');
    chat.answer(space, { status: 429, headers: { 'retry-after': '1' } });
    const org = await anOrganization('gchat-429');
    const channel = await api.createChannel(org.token, 'google-chat', { url: chat.webhookUrl(space, TOKEN) });
    await api.expectRetriedAfter429(org.token, channel, 200, 'gchat-429-worker');
    const sent = chat.at(space);
    expect(sent).to.have.length(2);
    expect(sent.flatMap((r) => r.problems)).to.deep.equal([]);
  });
});
