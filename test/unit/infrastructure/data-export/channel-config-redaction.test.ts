import { expect } from 'chai';
import { NOTIFIERS } from '../../../../src/domain/notifications/notifiers';
import type { ChannelConfig, NotifierDescriptor } from '../../../../src/domain/notifications/notifiers/notifier';
import { channelConfigRedaction } from '../../../../src/infrastructure/data-export/channel-config-redaction';
import { EXPORT_RESOURCES } from '../../../../src/infrastructure/data-export/zip-export-archive-writer';

const pager: NotifierDescriptor = {
  type: 'pager',
  label: 'Pager',
  fields: [
    {
      name: 'pagerKey' as keyof ChannelConfig,
      mark: 'secret',
      label: 'Pager key',
      help: 'The pager key',
      input: { kind: 'string', max: 32 },
    },
  ],
  normalize: (config) => config,
  transport: 'post',
  sample: {},
};

describe('the export of notification channel configs (channelConfigRedaction)', () => {
  it("says in the manifest what it did to today's types, as it always said", () => {
    const how =
      'url cut to its scheme and host, header values replaced by [redacted], token replaced by [redacted], routingKey replaced by [redacted], botToken replaced by [redacted], apiUrl cut to its scheme and host, appToken replaced by [redacted], userKey replaced by [redacted], accessToken replaced by [redacted], apiKey replaced by [redacted], apiToken replaced by [redacted]';
    expect(channelConfigRedaction(NOTIFIERS)).to.include({ how });
    const channels = EXPORT_RESOURCES.find((r) => r.name === 'notification-channels')!;
    expect(channels.description).to.equal(
      'Notification channels (signing secrets left out; URLs, which are credentials for chat webhooks, and header values, token, routingKey, botToken, appToken, userKey, accessToken, apiKey, apiToken redacted)',
    );
    expect(channels.leftOut).to.deep.equal([
      { field: 'secret_ciphertext', how: 'left out' },
      { field: 'config', how },
    ]);
  });

  it("merges each redacted field over the config, a new type's secret replaced whole, with no '?' (the runner's placeholder)", () => {
    const { sql, how, credentials } = channelConfigRedaction([...NOTIFIERS, pager], 'c');
    expect(how).to.equal(
      'url cut to its scheme and host, header values replaced by [redacted], token replaced by [redacted], routingKey replaced by [redacted], botToken replaced by [redacted], apiUrl cut to its scheme and host, appToken replaced by [redacted], userKey replaced by [redacted], accessToken replaced by [redacted], apiKey replaced by [redacted], apiToken replaced by [redacted], pagerKey replaced by [redacted]',
    );
    expect(credentials).to.deep.equal([
      'token',
      'routingKey',
      'botToken',
      'appToken',
      'userKey',
      'accessToken',
      'apiKey',
      'apiToken',
      'pagerKey',
    ]);
    expect(sql).to.match(
      /^\(c \|\| \(CASE .* \|\| \(CASE .* \|\| \(CASE .* \|\| \(CASE WHEN coalesce\(jsonb_typeof\(c->'pagerKey'\), 'null'\) <> 'null'/,
    );
    expect(sql).to.not.include('?');
  });

  it('refuses a field name that is not a plain name (it is written into the SQL)', () => {
    const odd = { ...pager, fields: [{ ...pager.fields[0]!, name: "x'y" as keyof ChannelConfig }] };
    expect(() => channelConfigRedaction([odd])).to.throw(/not a plain name/);
  });
});
