import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf } from '../../../../src/domain/notifications/notifiers';
import { ZULIP_CONTENT_MAX_BYTES } from '../../../../src/domain/notifications/notifiers/zulip';
import { expectAppError } from '../../../support/expect-app-error';

const SERVER = 'https://chat.example.com/';
const KEY = 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5';
const config = {
  url: SERVER,
  botEmail: 'alerts-bot@chat.example.com',
  apiKey: KEY,
  stream: 'ops',
  streamTopic: 'alerts',
  messagePrefix: null,
};

const aMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: 'd1',
  event: 'incident.opened',
  occurredAt: '2026-11-01T00:00:00.000Z',
  summary: 'Shop is down',
  incidentId: 'inc_7Qm2',
  monitorId: 1,
  customerId: 1,
  data: {},
  ...overrides,
});

describe('the Zulip notifier (src/domain/notifications/notifiers/zulip.ts)', () => {
  describe('its config', () => {
    it('keeps the server, the bot (its e-mail lowercased), the key, the channel and topic (trimmed); compared by channel', () => {
      expect(
        normalizeChannelConfig('zulip', { ...config, botEmail: 'Alerts-Bot@Chat.Example.com', stream: ' ops ', streamTopic: 'alerts ' }),
      ).to.deep.equal(config);
      expect(normalizeChannelConfig('zulip', { ...config, stream: 'Ops & Infra', streamTopic: 'Shop – down' })).to.include({
        stream: 'Ops & Infra',
        streamTopic: 'Shop – down',
      });
      expect(recipientsOf('zulip', config)).to.deep.equal(['ops']);
    });

    it('refuses each missing field, naming it', () => {
      for (const field of ['botEmail', 'apiKey', 'stream', 'streamTopic'] as const)
        expectAppError(() => normalizeChannelConfig('zulip', { ...config, [field]: undefined }), 'invalidRequestBody', {
          field: `config.${field}`,
          reason: 'required',
        });
    });

    it('refuses a key, an e-mail or a name Zulip would not take', () => {
      for (const apiKey of [KEY.slice(1), `${KEY}0`, `${KEY.slice(1)}-`])
        expectAppError(() => normalizeChannelConfig('zulip', { ...config, apiKey }), 'invalidRequestBody', {
          field: 'config.apiKey',
          reason: 'notAnApiKey',
        });
      for (const botEmail of ['bot', 'bot:x@chat.example.com', 'bot@', 'b ot@chat.example.com'])
        expectAppError(() => normalizeChannelConfig('zulip', { ...config, botEmail }), 'invalidRequestBody', {
          field: 'config.botEmail',
          reason: 'notAnEmailAddress',
        });
      for (const [field, value] of [
        ['stream', 'x'.repeat(61)],
        ['streamTopic', 'a\nb'],
        ['streamTopic', '   '],
      ] as const)
        expectAppError(() => normalizeChannelConfig('zulip', { ...config, [field]: value }), 'invalidRequestBody', {
          field: `config.${field}`,
        });
      expect(normalizeChannelConfig('zulip', { ...config, streamTopic: 'é'.repeat(60) }).streamTopic).to.have.length(60);
    });
  });

  describe('what it sends (a form, as Zulip takes)', () => {
    it('type=stream, to, topic and Markdown content to <server>/api/v1/messages, the bot as HTTP Basic', () => {
      expect(postRequestOf('zulip', aMessage(), { ...config, messagePrefix: '[prod]' })).to.deep.equal({
        url: 'https://chat.example.com/api/v1/messages',
        form: true,
        body: { type: 'stream', to: 'ops', topic: 'alerts', content: '**[prod] Incident opened**\nShop is down' },
        headers: { Authorization: `Basic ${Buffer.from(`alerts-bot@chat.example.com:${KEY}`).toString('base64')}` },
      });
    });

    it('cuts the content to 10000 bytes, saying so', () => {
      const { content } = postRequestOf('zulip', aMessage({ summary: '€'.repeat(5000) }), config)!.body as { content: string };
      expect(Buffer.byteLength(content)).to.be.at.most(ZULIP_CONTENT_MAX_BYTES);
      expect(content.endsWith('…')).to.equal(true);
    });
  });
});
