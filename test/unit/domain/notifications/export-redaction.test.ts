import { expect } from 'chai';
import { NOTIFIERS } from '../../../../src/domain/notifications/notifiers';
import { URL_FIELD } from '../../../../src/domain/notifications/notifiers/config-rules';
import { configRedactions, redactionOf } from '../../../../src/domain/notifications/notifiers/export-redaction';
import type { ChannelConfig, NotifierDescriptor, NotifierField } from '../../../../src/domain/notifications/notifiers/notifier';

const field = (name: string, mark: NotifierField['mark'], over: Partial<NotifierField> = {}): NotifierField => ({
  name: name as keyof ChannelConfig,
  mark,
  label: name,
  help: name,
  input: { kind: 'string', max: 100 },
  ...over,
});
const aType = (type: string, fields: NotifierField[]): NotifierDescriptor => ({
  type,
  label: type,
  fields,
  normalize: (config) => config,
  transport: 'post',
  sample: {},
});

describe('the data export redaction, derived from the descriptors (export-redaction.ts)', () => {
  it('cuts a URL to its host whatever its mark, replaces header values and any other secret, keeps the rest', () => {
    expect(redactionOf({ ...URL_FIELD, label: 'URL', mark: 'target' })).to.equal('hostOnly');
    expect(redactionOf({ ...URL_FIELD, label: 'URL', mark: 'secret' })).to.equal('hostOnly');
    expect(redactionOf(field('headers', 'plain', { input: { kind: 'headers', nameMax: 10, valueMax: 10 } }))).to.equal('headerValues');
    expect(redactionOf(field('apiKey', 'secret'))).to.equal('redacted');
    expect(redactionOf(field('chatId', 'target'))).to.equal('kept');
    expect(redactionOf(field('messagePrefix', 'plain'))).to.equal('kept');
  });

  it("redacts today's types as the export always did: the URL to its host, header values; ntfy's access token PagerDuty's routing key and Telegram's bot token whole, Telegram's API URL to its host", () => {
    expect(configRedactions(NOTIFIERS)).to.deep.equal([
      { name: 'url', redaction: 'hostOnly' },
      { name: 'headers', redaction: 'headerValues' },
      { name: 'token', redaction: 'redacted' },
      { name: 'routingKey', redaction: 'redacted' },
      { name: 'botToken', redaction: 'redacted' },
      { name: 'apiUrl', redaction: 'hostOnly' },
      { name: 'appToken', redaction: 'redacted' },
      { name: 'userKey', redaction: 'redacted' },
      { name: 'accessToken', redaction: 'redacted' },
      { name: 'apiKey', redaction: 'redacted' },
      { name: 'apiToken', redaction: 'redacted' },
    ]);
  });

  it('redacts a new type’s secret field without a word elsewhere', () => {
    const pager = aType('pager', [{ ...URL_FIELD, label: 'URL', mark: 'target' }, field('pagerKey', 'secret'), field('source', 'plain')]);
    expect(configRedactions([...NOTIFIERS, pager])).to.deep.equal([
      { name: 'url', redaction: 'hostOnly' },
      { name: 'headers', redaction: 'headerValues' },
      { name: 'token', redaction: 'redacted' },
      { name: 'routingKey', redaction: 'redacted' },
      { name: 'botToken', redaction: 'redacted' },
      { name: 'apiUrl', redaction: 'hostOnly' },
      { name: 'appToken', redaction: 'redacted' },
      { name: 'userKey', redaction: 'redacted' },
      { name: 'accessToken', redaction: 'redacted' },
      { name: 'apiKey', redaction: 'redacted' },
      { name: 'apiToken', redaction: 'redacted' },
      { name: 'pagerKey', redaction: 'redacted' },
    ]);
  });

  it('treats a field two types mark differently as the stricter says', () => {
    const a = aType('a', [field('token', 'plain'), field('link', 'plain', { url: true })]);
    const b = aType('b', [field('token', 'secret'), field('link', 'plain', { input: { kind: 'headers', nameMax: 1, valueMax: 1 } })]);
    expect(configRedactions([a, b])).to.deep.equal([
      { name: 'token', redaction: 'redacted' },
      { name: 'link', redaction: 'redacted' },
    ]);
  });
});
