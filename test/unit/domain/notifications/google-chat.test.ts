import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf } from '../../../../src/domain/notifications/notifiers';
import { GOOGLE_CHAT_TEXT_MAX_BYTES } from '../../../../src/domain/notifications/notifiers/google-chat';
import { expectAppError } from '../../../support/expect-app-error';

const URL = 'https://chat.googleapis.com/v1/spaces/AAAA1234/messages?key=k-1&token=t%3D1';
const config = { url: URL, messagePrefix: null };

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

describe('the Google Chat notifier (src/domain/notifications/notifiers/google-chat.ts)', () => {
  it('keeps its webhook URL (a secret, compared as the recipient) and judges it by the channel URL rule', () => {
    expect(normalizeChannelConfig('google-chat', { url: URL })).to.deep.equal(config);
    expect(recipientsOf('google-chat', config)).to.deep.equal([URL]);
    expectAppError(() => normalizeChannelConfig('google-chat', {}), 'invalidRequestBody', { field: 'config.url', reason: 'required' });
    expectAppError(() => normalizeChannelConfig('google-chat', { url: 'http://192.168.1.1/x' }), 'invalidRequestBody', {
      field: 'config.url',
      reason: 'nonPublicAddress',
    });
  });

  it("posts {text}, the title in Chat's bold, to the webhook URL, an incident's messages in the incident's thread", () => {
    expect(postRequestOf('google-chat', aMessage(), { ...config, messagePrefix: '[prod]' })).to.deep.equal({
      url: `${URL}&threadKey=incident-inc_7Qm2&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD`,
      body: { text: '*[prod] Incident opened*\nShop is down' },
    });
    const resolved = postRequestOf('google-chat', aMessage({ event: 'incident.resolved', summary: 'Shop is up' }), config)!;
    expect(new globalThis.URL(resolved.url!).searchParams.get('threadKey')).to.equal('incident-inc_7Qm2');
    expect(new globalThis.URL(resolved.url!).searchParams.get('key')).to.equal('k-1');
    expect(new globalThis.URL(resolved.url!).searchParams.get('token')).to.equal('t=1');
  });

  it('starts a thread of its own for a message of no incident (a test, a certificate)', () => {
    expect(postRequestOf('google-chat', aMessage({ event: 'test', incidentId: null }), config)!.url).to.equal(URL);
  });

  it('cuts the text to fit the 32,000-byte message, saying so', () => {
    const { text } = postRequestOf('google-chat', aMessage({ summary: 'é'.repeat(20_000) }), config)!.body as { text: string };
    expect(new TextEncoder().encode(text).length).to.be.at.most(GOOGLE_CHAT_TEXT_MAX_BYTES);
    expect(text.endsWith('…')).to.equal(true);
  });
});
