import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import { expectAppError } from '../../../support/expect-app-error';

const URL = 'https://hooks.example.com/in';

describe('channel config', () => {
  it("keeps a webhook's URL and headers", () => {
    expect(normalizeChannelConfig('webhook', { url: URL, headers: { Authorization: 'Bearer x' } })).to.deep.equal({
      url: URL,
      headers: { Authorization: 'Bearer x' },
    });
  });

  it('refuses a Host header in any case (webhookHostHeaderForbidden)', () => {
    for (const name of ['Host', 'host', 'HOST']) {
      expectAppError(
        () => normalizeChannelConfig('webhook', { url: URL, headers: { [name]: 'evil.example.com' } }),
        'webhookHostHeaderForbidden',
      );
    }
  });

  it('refuses headers the transport or the signature own, bad names and values with line breaks', () => {
    const refused: Array<Record<string, string>> = [
      { 'Content-Length': '1' },
      { 'X-Webhook-Signature': 'forged' },
      { 'bad name': 'x' },
      { 'X-Ok': 'a\r\nInjected: 1' },
    ];
    for (const headers of refused) {
      expectAppError(() => normalizeChannelConfig('webhook', { url: URL, headers }), 'invalidRequestBody');
    }
  });

  it('says why a field is refused in words, naming the field, with the code kept in data.reason', () => {
    const messageOf = (type: Parameters<typeof normalizeChannelConfig>[0], config: Record<string, unknown>) => {
      try {
        normalizeChannelConfig(type, config);
      } catch (error) {
        return { message: (error as Error).message, reason: (error as { details?: { reason?: string } }).details?.reason };
      }
      throw new Error('not refused');
    };
    expect(messageOf('webhook', { url: URL, headers: { 'Content-Type': 'text/plain' } })).to.deep.equal({
      message: 'Invalid config.headers.Content-Type: a header the service sets itself; leave it out',
      reason: 'reservedHeader',
    });
    expect(messageOf('sms', { phoneNumbers: ['030 1234'] }).message).to.equal(
      'Invalid config.phoneNumbers.0: not a phone number in E.164 form, such as +4930123456',
    );
    expect(messageOf('webhook', { url: URL, recipients: ['a@example.com'] }).message).to.equal(
      'Invalid config.recipients: not a field of a webhook channel',
    );
    const cases: Array<[Parameters<typeof normalizeChannelConfig>[0], Record<string, unknown>]> = [
      ['webhook', { url: URL, headers: { 'bad name': 'x' } }],
      ['webhook', { url: URL, headers: { 'X-Ok': 'a\r\nb' } }],
      ['email', { recipients: ['nope'] }],
      ['ntfy', { url: 'https://ntfy.example.com', topic: 'no spaces please' }],
      ['pagerduty', { routingKey: 'short' }],
      ['telegram', { botToken: 'nope', chatId: '1' }],
    ];
    for (const [type, config] of cases) {
      const { message, reason } = messageOf(type, config);
      expect(message, type).to.match(/^Invalid config\.[\w.-]+(\.[\w\s-]+)?: [a-z]/);
      expect(message, 'the words, not the code').to.not.include(reason!);
    }
  });

  it('lowercases and de-duplicates email recipients and refuses a non-address', () => {
    expect(normalizeChannelConfig('email', { recipients: ['A@Example.com', 'a@example.com'] })).to.deep.equal({
      recipients: ['a@example.com'],
    });
    expectAppError(() => normalizeChannelConfig('email', { recipients: ['not-an-address'] }), 'invalidRequestBody', {
      field: 'config.recipients.0',
    });
    expectAppError(() => normalizeChannelConfig('email', {}), 'invalidRequestBody', { field: 'config.recipients', reason: 'required' });
  });

  it('wants SMS numbers in E.164', () => {
    expect(normalizeChannelConfig('sms', { phoneNumbers: ['+14155550100'] })).to.deep.equal({ phoneNumbers: ['+14155550100'] });
    for (const number of ['004930123456', '+0123456789', '+49 30 123456', '+1234567890123456']) {
      expectAppError(() => normalizeChannelConfig('sms', { phoneNumbers: [number] }), 'invalidRequestBody', { reason: 'notE164' });
    }
  });

  it('judges chat URLs by the URL rule but never the message prefix', () => {
    expect(normalizeChannelConfig('discord', { url: URL, messagePrefix: 'http://127.0.0.1/' })).to.deep.equal({
      url: URL,
      messagePrefix: 'http://127.0.0.1/',
    });
    expectAppError(() => normalizeChannelConfig('teams', { url: 'http://127.0.0.1/' }), 'invalidRequestBody', {
      reason: 'nonPublicAddress',
    });
  });

  it('refuses the fields of another type', () => {
    expectAppError(() => normalizeChannelConfig('email', { recipients: ['a@example.com'], url: URL }), 'invalidRequestBody', {
      field: 'config.url',
    });
    expectAppError(() => normalizeChannelConfig('webhook', { url: URL, messagePrefix: 'x' }), 'invalidRequestBody', {
      field: 'config.messagePrefix',
    });
  });

  it('answers who a config reaches', () => {
    expect(recipientsOf('webhook', { url: URL })).to.deep.equal([URL]);
    expect(recipientsOf('email', { recipients: ['a@example.com'] })).to.deep.equal(['a@example.com']);
    expect(recipientsOf('sms', { phoneNumbers: ['+14155550100'] })).to.deep.equal(['+14155550100']);
  });
});
