import { expect } from 'chai';
import { NOTIFIERS } from '../../../../src/domain/notifications/notifiers';
import type { ChannelConfig, NotifierDescriptor } from '../../../../src/domain/notifications/notifiers/notifier';
import { channelConfigRedaction } from '../../../../src/infrastructure/data-export/channel-config-redaction';
import { raw, sql } from '../../../../src/infrastructure/persistence/sql';
import { testServer } from '../../../support/test-server';

/** A type only this test knows, with an API key (a secret that is not a URL) and a plain field. */
const keyed: NotifierDescriptor = {
  type: 'keyed',
  label: 'Keyed',
  fields: [
    { name: 'apiKey' as keyof ChannelConfig, mark: 'secret', label: 'API key', help: 'The API key', input: { kind: 'string', max: 64 } },
    { name: 'messagePrefix', mark: 'plain', label: 'Prefix', help: 'A prefix', input: { kind: 'string', max: 64, nullable: true } },
  ],
  normalize: (config) => config,
  transport: 'post',
  sample: {},
};

/** The export's SQL run on real PostgreSQL over one config. */
async function exported(notifiers: readonly NotifierDescriptor[], config: Record<string, unknown>): Promise<unknown> {
  const { database } = await testServer();
  const [row] = await database.sql.query<{ c: unknown }>(
    sql`SELECT ${raw(channelConfigRedaction(notifiers).sql)} AS c FROM (SELECT ${JSON.stringify(config)}::jsonb AS config) t`,
  );
  return row!.c;
}

describe('notification channel configs as the export writes them (channelConfigRedaction on PostgreSQL)', () => {
  it("cuts a chat or webhook URL to its scheme and host and replaces header values, keeping today's other fields", async () => {
    expect(await exported(NOTIFIERS, { url: 'https://hooks.slack.com/services/T/B/secret?x=1', messagePrefix: '[prod]' })).to.deep.equal({
      url: 'https://hooks.slack.com/[redacted]',
      messagePrefix: '[prod]',
    });
    expect(
      await exported(NOTIFIERS, { url: 'http://hooks.example.com:8080/in', headers: { Authorization: 'Bearer x', 'X-Team': 'ops' } }),
    ).to.deep.equal({ url: 'http://hooks.example.com:8080/[redacted]', headers: { Authorization: '[redacted]', 'X-Team': '[redacted]' } });
    expect(await exported(NOTIFIERS, { url: 'https://h.example.com/', headers: {} })).to.deep.equal({
      url: 'https://h.example.com/[redacted]',
      headers: {},
    });
    expect(await exported(NOTIFIERS, { recipients: ['ops@example.com'] })).to.deep.equal({ recipients: ['ops@example.com'] });
    expect(await exported(NOTIFIERS, { phoneNumbers: ['+14155550100'] })).to.deep.equal({ phoneNumbers: ['+14155550100'] });
  });

  it("keeps an ntfy channel's server host and topic, and replaces its access token whole (none stays null)", async () => {
    expect(
      await exported(NOTIFIERS, {
        url: 'https://ntfy.example.com/',
        topic: 'ops',
        token: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2',
        messagePrefix: null,
      }),
    ).to.deep.equal({ url: 'https://ntfy.example.com/[redacted]', topic: 'ops', token: '[redacted]', messagePrefix: null });
    expect(await exported(NOTIFIERS, { url: 'https://ntfy.sh/', topic: 'ops', token: null, messagePrefix: null })).to.deep.equal({
      url: 'https://ntfy.sh/[redacted]',
      topic: 'ops',
      token: null,
      messagePrefix: null,
    });
  });

  it("keeps a telegram channel's chat, topic and server host, and replaces its bot token whole (no server stays null)", async () => {
    const config = {
      botToken: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0',
      chatId: '-1001234567890',
      threadId: '7',
      messagePrefix: null,
    };
    expect(await exported(NOTIFIERS, { ...config, apiUrl: 'https://bots.example.com/telegram/' })).to.deep.equal({
      ...config,
      botToken: '[redacted]',
      apiUrl: 'https://bots.example.com/[redacted]',
    });
    expect(await exported(NOTIFIERS, { ...config, apiUrl: null })).to.deep.equal({ ...config, botToken: '[redacted]', apiUrl: null });
  });

  it("replaces Pushover's keys and Matrix's access token whole, keeping a Matrix room and the servers' hosts", async () => {
    expect(
      await exported(NOTIFIERS, {
        appToken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
        userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
        url: 'https://api.pushover.net/1/messages.json',
        messagePrefix: null,
      }),
    ).to.deep.equal({ appToken: '[redacted]', userKey: '[redacted]', url: 'https://api.pushover.net/[redacted]', messagePrefix: null });
    expect(
      await exported(NOTIFIERS, {
        url: 'https://matrix.example.org/',
        roomId: '!abc:example.org',
        accessToken: 'syt_x',
        messagePrefix: null,
      }),
    ).to.deep.equal({
      url: 'https://matrix.example.org/[redacted]',
      roomId: '!abc:example.org',
      accessToken: '[redacted]',
      messagePrefix: null,
    });
  });

  it('replaces the API keys and application tokens of opsgenie, gotify and zulip whole, keeping their hosts, channel and topic', async () => {
    expect(
      await exported(NOTIFIERS, { apiKey: '0b2c8f3e-4d1a-4e5b-9c7d-6a8f0e1b2c3d', url: 'https://api.eu.opsgenie.com/' }),
    ).to.deep.equal({
      apiKey: '[redacted]',
      url: 'https://api.eu.opsgenie.com/[redacted]',
    });
    expect(await exported(NOTIFIERS, { url: 'https://push.example.com/gotify/', apiToken: 'AbCdEf0123456_x' })).to.deep.equal({
      url: 'https://push.example.com/[redacted]',
      apiToken: '[redacted]',
    });
    const zulip = { botEmail: 'bot@chat.example.com', stream: 'ops', streamTopic: 'alerts', messagePrefix: null };
    expect(
      await exported(NOTIFIERS, { ...zulip, url: 'https://chat.example.com/', apiKey: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5' }),
    ).to.deep.equal({
      ...zulip,
      url: 'https://chat.example.com/[redacted]',
      apiKey: '[redacted]',
    });
    expect(
      await exported(NOTIFIERS, { url: 'https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t', messagePrefix: null }),
    ).to.deep.equal({
      url: 'https://chat.googleapis.com/[redacted]',
      messagePrefix: null,
    });
  });

  it("replaces a new type's API key whole, leaving an absent or null one as it is", async () => {
    const notifiers = [...NOTIFIERS, keyed];
    expect(await exported(notifiers, { apiKey: 'k-123456', messagePrefix: null })).to.deep.equal({
      apiKey: '[redacted]',
      messagePrefix: null,
    });
    expect(await exported(notifiers, { apiKey: null })).to.deep.equal({ apiKey: null });
    expect(await exported(notifiers, { messagePrefix: 'x' })).to.deep.equal({ messagePrefix: 'x' });
  });
});
