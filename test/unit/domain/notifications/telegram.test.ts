import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf } from '../../../../src/domain/notifications/notifiers';
import { escapeHtml, TELEGRAM_TEXT_MAX, truncateText } from '../../../../src/domain/notifications/notifiers/telegram';
import { expectAppError } from '../../../support/expect-app-error';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0';
const config = { botToken: TOKEN, chatId: '-1001234567890', threadId: null, apiUrl: null, messagePrefix: null };
const SEND = `https://api.telegram.org/bot${TOKEN}/sendMessage`;

const aMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: 'd1',
  event: 'incident.opened',
  occurredAt: '2026-11-01T00:00:00.000Z',
  summary: 'Shop is down',
  incidentId: 'i1',
  monitorId: 1,
  customerId: 1,
  data: {},
  ...overrides,
});

/** What Telegram shows of an HTML text: its tags dropped, its three entities read back. */
const visible = (html: string) =>
  html
    .replace(/<\/?b>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const bodyOf = (message: NotificationMessage, over: Record<string, unknown> = {}) =>
  postRequestOf('telegram', message, { ...config, ...over })!.body as Record<string, unknown>;

describe('the telegram notifier (src/domain/notifications/notifiers/telegram.ts)', () => {
  describe('its config', () => {
    it('keeps the token and chat; no topic, no server of its own and no prefix are stored as null', () => {
      expect(normalizeChannelConfig('telegram', { botToken: TOKEN, chatId: '-1001234567890' })).to.deep.equal(config);
      expect(normalizeChannelConfig('telegram', config)).to.deep.equal(config);
      expect(normalizeChannelConfig('telegram', { ...config, chatId: '@ops_alerts', threadId: '42', apiUrl: '' })).to.deep.equal({
        ...config,
        chatId: '@ops_alerts',
        threadId: '42',
      });
      expect(normalizeChannelConfig('telegram', { ...config, chatId: '0042' }).chatId).to.equal('42');
      expect(normalizeChannelConfig('telegram', { ...config, chatId: '@Ops_Alerts' }).chatId).to.equal('@ops_alerts');
    });

    it('refuses a missing token and one BotFather would not issue, naming config.botToken', () => {
      expectAppError(() => normalizeChannelConfig('telegram', { chatId: '42' }), 'invalidRequestBody', {
        field: 'config.botToken',
        reason: 'required',
      });
      const bad = [
        '123456789',
        ':AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0',
        '12a:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0',
        '1:short',
        `1:${'a'.repeat(61)}`,
      ];
      for (const botToken of [...bad, `${TOKEN}\r\n`, `${TOKEN}/x`, 'bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0'])
        expectAppError(() => normalizeChannelConfig('telegram', { botToken, chatId: '42' }), 'invalidRequestBody', {
          field: 'config.botToken',
          reason: 'notABotToken',
        });
    });

    it('refuses a missing chat and one that is neither an id nor an @username, naming config.chatId', () => {
      expectAppError(() => normalizeChannelConfig('telegram', { botToken: TOKEN }), 'invalidRequestBody', {
        field: 'config.chatId',
        reason: 'required',
      });
      for (const chatId of ['0', '-', '1.5', '12345678901234567', '9007199254740993', 'ops', '@ops', '@1ops_alerts', '@ops-alerts', ' 42'])
        expectAppError(() => normalizeChannelConfig('telegram', { botToken: TOKEN, chatId }), 'invalidRequestBody', {
          field: 'config.chatId',
          reason: 'notAChatId',
        });
    });

    it('refuses a topic that is not a positive integer, naming config.threadId', () => {
      for (const threadId of ['0', '-3', 'general', '1e3'])
        expectAppError(() => normalizeChannelConfig('telegram', { ...config, threadId }), 'invalidRequestBody', {
          field: 'config.threadId',
          reason: 'notAThreadId',
        });
    });

    it('judges a Bot API server of its own by the channel URL rule, naming config.apiUrl', () => {
      expect(normalizeChannelConfig('telegram', { ...config, apiUrl: 'https://bots.example.com' }).apiUrl).to.equal(
        'https://bots.example.com/',
      );
      expectAppError(() => normalizeChannelConfig('telegram', { ...config, apiUrl: 'http://127.0.0.1:8081/' }), 'invalidRequestBody', {
        field: 'config.apiUrl',
        reason: 'nonPublicAddress',
      });
      expectAppError(() => normalizeChannelConfig('telegram', { ...config, url: 'https://api.telegram.org/' }), 'invalidRequestBody', {
        field: 'config.url',
      });
    });

    it('reaches its chat: two channels are compared by chat, whatever bot posts', () => {
      expect(recipientsOf('telegram', config)).to.deep.equal(['-1001234567890']);
    });
  });

  describe('what it sends (sendMessage, JSON)', () => {
    it('an opened incident: to the public server, the token in the path, chat_id a number, the title bold', () => {
      expect(postRequestOf('telegram', aMessage(), config)).to.deep.equal({
        url: SEND,
        body: {
          chat_id: -1001234567890,
          text: '<b>Incident opened</b>\nShop is down',
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
        },
      });
    });

    it('a resolved incident to a channel by @username, in a forum topic, through a server of its own, the prefix before the title', () => {
      const request = postRequestOf('telegram', aMessage({ event: 'incident.resolved', summary: 'Shop is up' }), {
        ...config,
        chatId: '@ops_alerts',
        threadId: '7',
        apiUrl: 'https://bots.example.com/telegram/',
        messagePrefix: '[prod]',
      });
      expect(request).to.deep.equal({
        url: `https://bots.example.com/telegram/bot${TOKEN}/sendMessage`,
        body: {
          chat_id: '@ops_alerts',
          message_thread_id: 7,
          text: '<b>[prod] Incident resolved</b>\nShop is up',
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
        },
      });
    });

    it('a storm digest reads as the transition it gathers, its incidents listed', () => {
      const digest = aMessage({
        event: 'incident.digest',
        summary: '3 monitors of Acme are down',
        incidentId: null,
        data: {
          digestOf: 'incident.opened',
          count: 3,
          incidents: [
            { summary: 'Shop is down', occurredAt: '2026-11-01T00:00:00.000Z' },
            { summary: 'API is down', occurredAt: '2026-11-01T00:00:01.000Z' },
          ],
        },
      });
      expect(bodyOf(digest).text).to.equal(
        '<b>Monitors down</b>\n3 monitors of Acme are down\n\n- Shop is down (2026-11-01T00:00:00.000Z)\n- API is down (2026-11-01T00:00:01.000Z)\n- and 1 more',
      );
    });

    it('a test message, saying it is a test', () => {
      const test = aMessage({ event: 'test', summary: 'This is a test notification', incidentId: null, data: { test: true } });
      expect(bodyOf(test).text).to.equal('<b>Test notification</b>\nThis is a test notification');
    });

    it('escapes <, > and & in names, prefix and alert text, and nothing else', () => {
      const alert = aMessage({
        event: 'alert.manual',
        summary: 'Shop <b>&</b> "Cart" is down',
        data: { severity: 'critical', message: "R&D's <script>alert(1)</script> & 1 > 0" },
      });
      expect(bodyOf(alert, { messagePrefix: '<prod&co>' }).text).to.equal(
        '<b>&lt;prod&amp;co&gt; Critical alert</b>\nShop &lt;b&gt;&amp;&lt;/b&gt; "Cart" is down\n\nR&amp;D\'s &lt;script&gt;alert(1)&lt;/script&gt; &amp; 1 &gt; 0',
      );
      expect(escapeHtml('&amp; <>')).to.equal('&amp;amp; &lt;&gt;');
    });
  });

  describe('the text size (Telegram takes 4096 characters after entity parsing)', () => {
    it('cuts the visible text to 4096 characters before escaping: the markup stays whole, an ellipsis says so', () => {
      const long = aMessage({ summary: '<&>'.repeat(2000) });
      const text = bodyOf(long).text as string;
      expect(visible(text)).to.have.length(TELEGRAM_TEXT_MAX);
      expect(text.length).to.be.above(TELEGRAM_TEXT_MAX);
      expect(text.startsWith('<b>Incident opened</b>\n')).to.equal(true);
      expect(text.endsWith('…')).to.equal(true);
      expect(text.slice('<b>Incident opened</b>\n'.length, -1)).to.match(/^(&lt;|&amp;|&gt;)+$/);
    });

    it('counts a character outside the BMP as Telegram does (two), never splitting it', () => {
      const text = bodyOf(aMessage({ summary: '🚨'.repeat(3000) })).text as string;
      expect(visible(text).length).to.be.at.most(TELEGRAM_TEXT_MAX);
      expect(text).to.not.match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      expect(truncateText('ab🚨', 3)).to.equal('ab…');
      expect(truncateText('a'.repeat(4096), 4096)).to.equal('a'.repeat(4096));
      expect(truncateText('a'.repeat(4097), 4096)).to.equal(`${'a'.repeat(4095)}…`);
    });

    it('leaves a text that fits as it is', () => {
      const summary = 'x'.repeat(TELEGRAM_TEXT_MAX - 'Incident opened\n'.length);
      expect(visible(bodyOf(aMessage({ summary })).text as string)).to.equal(`Incident opened\n${summary}`);
    });
  });
});
