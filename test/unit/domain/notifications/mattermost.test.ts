import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf } from '../../../../src/domain/notifications/notifiers';
import { MATTERMOST_TEXT_MAX } from '../../../../src/domain/notifications/notifiers/mattermost';
import { expectAppError } from '../../../support/expect-app-error';

const URL = 'https://chat.example.com/hooks/xxx-generatedkey-xxx';
const config = { url: URL, channel: null, messagePrefix: null };

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

describe('the Mattermost notifier (src/domain/notifications/notifiers/mattermost.ts)', () => {
  describe('its config', () => {
    it('keeps the webhook URL and a channel override; none is stored as null', () => {
      expect(normalizeChannelConfig('mattermost', { url: URL })).to.deep.equal(config);
      expect(normalizeChannelConfig('mattermost', { url: URL, channel: '' })).to.deep.equal(config);
      for (const channel of ['town-square', 'ops_alerts.2', '@alice'])
        expect(normalizeChannelConfig('mattermost', { url: URL, channel }).channel).to.equal(channel);
      expect(recipientsOf('mattermost', config)).to.deep.equal([URL]);
    });

    it('refuses a channel that is not a channel name or @username, naming config.channel', () => {
      for (const channel of ['Town Square', '#ops', 'ops/alerts', '-ops', `a${'b'.repeat(64)}`, '@'])
        expectAppError(() => normalizeChannelConfig('mattermost', { url: URL, channel }), 'invalidRequestBody', {
          field: 'config.channel',
          reason: 'notAChannelName',
        });
    });

    it('judges the URL by the channel URL rule', () => {
      expectAppError(() => normalizeChannelConfig('mattermost', {}), 'invalidRequestBody', { field: 'config.url', reason: 'required' });
      expectAppError(() => normalizeChannelConfig('mattermost', { url: 'http://localhost/hooks/x' }), 'invalidRequestBody', {
        field: 'config.url',
      });
    });
  });

  describe('what it posts', () => {
    it('{text} in Markdown, the title in bold, to the webhook URL; no channel field without an override', () => {
      expect(postRequestOf('mattermost', aMessage(), { ...config, messagePrefix: '[prod]' })).to.deep.equal({
        url: URL,
        body: { text: '**[prod] Incident opened**\nShop is down' },
      });
    });

    it('the channel override as channel', () => {
      expect(postRequestOf('mattermost', aMessage(), { ...config, channel: 'town-square' })!.body).to.deep.equal({
        text: '**Incident opened**\nShop is down',
        channel: 'town-square',
      });
    });

    it("cuts the text to Mattermost's 16383 characters, saying so", () => {
      const { text } = postRequestOf('mattermost', aMessage({ summary: 'x'.repeat(20_000) }), config)!.body as { text: string };
      expect(text).to.have.length(MATTERMOST_TEXT_MAX);
      expect(text.endsWith('…')).to.equal(true);
    });
  });
});
