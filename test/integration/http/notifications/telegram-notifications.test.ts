import { expect } from 'chai';
import { expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { TelegramReceiver } from '../../../support/peers/telegram-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';

const BOT_API_HOST = 'api.telegram-fixture.com';
const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0';
const OTHER_TOKEN = '987654321:AAGunknownbotunknownbotunknownbot00';

let chatCounter = 0;
/** A supergroup's id of the test's own (negative, as Telegram's are). */
const aChat = () => String(-(1_000_000_000_000 + (Date.now() % 1_000_000_000) * 100 + ++chatCounter));

/**
 * The telegram channel type end to end: created over the API, its test message sent by the test
 * button through the ledger and a real worker to a loopback Bot API server that checks the
 * documented sendMessage (reached through the target policy: its name resolves to 127.0.0.1 in the
 * test DNS and CHECK_PRIVATE_ALLOWLIST admits loopback); the channel's apiUrl points at it, as a
 * self-hosted Bot API server's would.
 */
describe('telegram channels (a loopback Bot API server)', () => {
  const telegram = new TelegramReceiver(BOT_API_HOST);
  let service: DeliveryService;
  const { call, createChannel, deliveryOf, attemptsListed } = channelApi(() => service);
  const aChannel = (token: string, config: Record<string, unknown>, name = 'Phones') => createChannel(token, 'telegram', config, name);

  before(async () => {
    telegram.bot(TOKEN);
    await telegram.start();
    service = await aDeliveryService([BOT_API_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await telegram.stop();
  });

  it('sends the test message as sendMessage JSON to /bot<token>/sendMessage: chat_id a number, HTML text', async () => {
    const chatId = aChat();
    const org = await anOrganization('telegram-test-button');
    const channel = await aChannel(org.token, { botToken: TOKEN, chatId, apiUrl: telegram.url(), messagePrefix: '[prod] <R&D>' });
    const config = { botToken: TOKEN, chatId, threadId: null, apiUrl: telegram.url(), messagePrefix: '[prod] <R&D>' };
    expect(channel.config).to.deep.equal(config);
    expect(channel).to.not.have.property('signingSecret');

    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.status, JSON.stringify(queued.body)).to.equal(200);
    expect(queued.body).to.deep.include({ channelId: channel.publicId, channelType: 'telegram', event: 'test', status: 'delivered' });
    expect(queued.body.attempt).to.include({ statusCode: 200 });

    const [sent, ...more] = telegram.to(chatId);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent).to.deep.include({ method: 'POST', path: `/bot${TOKEN}/sendMessage`, token: TOKEN });
    expect(sent!.headers['content-type']).to.match(/^application\/json/);
    const summary = 'This is a test notification for the channel "Phones": no incident happened. If you can read this, the channel works.';
    expect(sent!.body).to.deep.equal({
      chat_id: Number(chatId),
      text: `<b>[prod] &lt;R&amp;D&gt; Test notification</b>\n${summary}`,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
    expect(sent!.visibleText).to.equal(`[prod] <R&D> Test notification\n${summary}`);
    expect(await attemptsListed(org.token, channel.publicId)).to.deep.equal([{ status: 'delivered', attempts: [[1, 200, 'delivered']] }]);
    // Shown back to whoever may read the channel, as ntfy's token and a chat service's URL are; the
    // data export redacts it (data-export.test.ts), monitoring as code writes it as a reference.
    expect((await call('GET', `/api/notification-channels/${channel.id}`, { token: org.token })).body.config).to.deep.equal(config);
  });

  it("sends to a public channel by @username, in a forum topic, the channel's name escaped", async () => {
    const org = await anOrganization('telegram-username');
    const channel = await aChannel(
      org.token,
      { botToken: TOKEN, chatId: '@ops_alerts_tg', threadId: '7', apiUrl: telegram.url() },
      'Ops <night> & "day"',
    );
    expect((await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token })).body.status).to.equal('delivered');
    const [sent] = telegram.to('@ops_alerts_tg').slice(-1);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent!.body).to.deep.include({ chat_id: '@ops_alerts_tg', message_thread_id: 7, parse_mode: 'HTML' });
    expect(sent!.body!.text).to.include('for the channel "Ops &lt;night&gt; &amp; "day"": no incident');
    expect(sent!.visibleText).to.include('for the channel "Ops <night> & "day"": no incident');
  });

  it('records a 401 (a token the server does not know) as a refusal, at once, and the channel degraded', async () => {
    const chatId = aChat();
    const org = await anOrganization('telegram-401');
    const channel = await aChannel(org.token, { botToken: OTHER_TOKEN, chatId, apiUrl: telegram.url() });
    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.status).to.equal(200);
    expect(queued.body).to.deep.include({ status: 'failed' });
    expect(queued.body.attempt).to.include({ statusCode: 401 });
    const delivery = await deliveryOf(queued.body.id);
    expect(delivery).to.include({ status: 'failed', attempts: 1, last_error: 'Answered 401' });
    expect(JSON.stringify(delivery)).to.not.include(OTHER_TOKEN.split(':')[1]);
    expect(await attemptsListed(org.token, channel.publicId)).to.deep.equal([{ status: 'failed', attempts: [[1, 401, 'failed']] }]);
    expect((await call('GET', `/api/notification-channels/${channel.id}`, { token: org.token })).body.health).to.include({
      consecutiveFailures: 1,
      lastFailureReason: 'Answered 401',
    });
    const [sent, ...more] = telegram.to(chatId);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
  });

  it('retries a 429 (Too Many Requests, retry_after in the body only), every attempt in the ledger', async () => {
    const chatId = aChat();
    telegram.answer(chatId, { status: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    const org = await anOrganization('telegram-429');
    const channel = await aChannel(org.token, { botToken: TOKEN, chatId, apiUrl: telegram.url() });
    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.body).to.deep.include({ status: 'retry' });
    expect(queued.body.attempt).to.include({ statusCode: 429 });

    service.worker('telegram-429-worker');
    await waitFor(async () => (await deliveryOf(queued.body.id))?.status === 'delivered', { what: 'the test delivered after the 429' });
    expect(await attemptsListed(org.token, channel.publicId)).to.deep.equal([
      {
        status: 'delivered',
        attempts: [
          [1, 429, 'retry'],
          [2, 200, 'delivered'],
        ],
      },
    ]);
    const sent = telegram.to(chatId);
    expect(sent).to.have.length(2);
    expect(sent.flatMap((m) => m.problems)).to.deep.equal([]);
  });

  it('refuses a bad token, chat or server naming the field, and compares telegram channels by chat', async () => {
    const org = await anOrganization('telegram-config');
    const chatId = aChat();
    for (const [config, field, reason] of [
      [{ botToken: 'not-a-token', chatId }, '/config/botToken', 'notABotToken'],
      [{ chatId }, '/config/botToken', 'required'],
      [{ botToken: TOKEN, chatId: 'ops' }, '/config/chatId', 'notAChatId'],
      [{ botToken: TOKEN }, '/config/chatId', 'required'],
      [{ botToken: TOKEN, chatId, threadId: 'general' }, '/config/threadId', 'notAThreadId'],
      [{ botToken: TOKEN, chatId, apiUrl: 'http://localhost:8081/' }, '/config/apiUrl', 'reservedName'],
      [{ botToken: TOKEN, chatId, apiUrl: 'ftp://bots.example.com/' }, '/config/apiUrl', 'malformed'],
    ] as const) {
      const refused = await call('POST', '/api/notification-channels', { token: org.token, body: { name: 'x', type: 'telegram', config } });
      expectError(refused, 400, 'invalidRequestBody');
      expect(refused.body.data, JSON.stringify(config)).to.deep.include({ code: 'invalidRequestBody', field, reason });
    }
    const first = await aChannel(org.token, { botToken: TOKEN, chatId });
    expect(first.config).to.deep.equal({ botToken: TOKEN, chatId, threadId: null, apiUrl: null, messagePrefix: null });
    await aChannel(org.token, { botToken: TOKEN, chatId: aChat() }, 'Another chat');
    // Another bot posting to the same chat still reaches the same people: a clash.
    const clash = await call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'again', type: 'telegram', config: { botToken: OTHER_TOKEN, chatId } },
    });
    expectError(clash, 409, 'notificationChannelRecipientExists');
    expect(clash.body.data.channelId).to.equal(first.id);
  });
});
