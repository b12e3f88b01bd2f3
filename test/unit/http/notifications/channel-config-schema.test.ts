import { expect } from 'chai';
import { z } from 'zod';
import { NOTIFIERS } from '../../../../src/domain/notifications/notifiers';
import type { NotifierDescriptor } from '../../../../src/domain/notifications/notifiers/notifier';
import { channelConfigInput, channelConfigOutput } from '../../../../src/interfaces/http/notifications/channel-config-schema';

/** A type only this test knows, with a field no real type has and the chat URL. */
const pager: NotifierDescriptor = {
  type: 'pager',
  label: 'Pager',
  fields: [
    {
      name: 'url',
      mark: 'target',
      label: 'Pager URL',
      help: 'The URL posted to (http or https, a public host)',
      input: { kind: 'string', max: 2048 },
    },
    { name: 'pagerKey' as 'url', mark: 'secret', label: 'Routing key', help: 'The routing key', input: { kind: 'string', max: 32 } },
  ],
  normalize: (config) => config,
  transport: 'post',
  sample: { url: 'https://pager.example.com/' },
};

/** Each field's description, as the OpenAPI document shows it. */
const descriptionsOf = (schema: z.ZodType) =>
  Object.fromEntries(Object.entries((schema as z.ZodObject).shape).map(([name, field]) => [name, field.description]));

describe('channel config schemas (built from the notifier descriptors)', () => {
  it('describe each field by the types taking it, in NOTIFIERS order, then its help', () => {
    expect(descriptionsOf(channelConfigInput(NOTIFIERS))).to.deep.equal({
      url: 'webhook, slack, teams, discord, ntfy, pagerduty, teams-workflows, pushover, matrix, opsgenie, google-chat, mattermost, gotify, zulip: the URL posted to (http or https, a public host)',
      headers:
        'webhook: extra request headers; the service sets Host, Content-Type, Content-Length, Connection, Transfer-Encoding and X-Webhook-* itself, so those are refused',
      recipients: 'email: recipient addresses (lowercased, each once)',
      phoneNumbers: 'sms, voice: numbers in E.164 (+4930123456), each once',
      messagePrefix:
        'slack, teams, discord, ntfy, pagerduty, telegram, teams-workflows, pushover, matrix, opsgenie, google-chat, mattermost, gotify, zulip: text put before every message (message content: never judged as a URL)',
      topic: 'ntfy: the topic published to: letters, digits, - and _, at most 64',
      token: 'ntfy: an access token (tk_...) sent as Authorization: Bearer, for a protected topic; none for a public one',
      routingKey: 'pagerduty: the integration key (routing key) of an Events API v2 integration: 32 letters and digits',
      botToken: 'telegram: the bot’s token from @BotFather (123456789:AA...): whoever has it can post as the bot',
      chatId: 'telegram: the chat posted to: its id (negative for a group or channel, e.g. -1001234567890) or a public channel’s @username',
      threadId: 'telegram: the forum topic’s message_thread_id, for a group with topics; none for the main chat',
      apiUrl:
        'telegram: the URL of a Bot API server of your own (http or https, a public host); none for Telegram’s own (api.telegram.org)',
      appToken: 'pushover: the API token of a Pushover application: 30 letters and digits',
      userIds:
        "web-push: ids of users of the organization who see the channel's customer; each of the devices they subscribed in the console is notified",
      userKey: 'pushover: the user or group key notified: 30 letters and digits',
      roomId: 'matrix: the room posted to, by its id (!abc123:example.org, in its advanced settings), which the account has joined',
      accessToken: 'matrix: the access token of the account that posts (a bot user’s), sent as Authorization: Bearer',
      apiKey: 'opsgenie, zulip: the API key sent with every request: whoever has it can post',
      channel:
        'mattermost: the channel posted to instead of the webhook’s own: its name as its URL shows it (town-square) or @username; none for the webhook’s own',
      apiToken: 'gotify: the token of a Gotify application (Apps, then Create application): whoever has it can push as that application',
      botEmail: 'zulip: the bot’s e-mail address as Zulip shows it (alerts-bot@example.zulipchat.com), its user name',
      stream: 'zulip: the name of the channel (stream) posted to, at most 60 characters; the bot must be allowed to post there',
      streamTopic: 'zulip: the topic in that channel the messages go to, at most 60 characters',
    });
  });

  it('hold the input bounds and refuse a field no type takes', () => {
    const input = channelConfigInput(NOTIFIERS);
    expect(input.safeParse({ url: 'x'.repeat(2048), messagePrefix: null }).success).to.equal(true);
    expect(input.safeParse({ url: 'x'.repeat(2049) }).success).to.equal(false);
    expect(input.safeParse({ recipients: [] }).success).to.equal(false);
    expect(input.safeParse({ phoneNumbers: Array(21).fill('+4930123456') }).success).to.equal(false);
    expect(input.safeParse({ headers: { '': 'x' } }).success).to.equal(false);
    expect(input.safeParse({ pagerKey: 'k' }).success).to.equal(false);
  });

  it('take a new type’s new field, in input and output, and add the type to a shared field', () => {
    const input = channelConfigInput([...NOTIFIERS, pager]);
    expect(input.safeParse({ pagerKey: 'k' }).success).to.equal(true);
    expect(input.safeParse({ pagerKey: 'k'.repeat(33) }).success).to.equal(false);
    const described = descriptionsOf(input);
    expect(described.pagerKey).to.equal('pager: the routing key');
    expect(described.url).to.equal(
      'webhook, slack, teams, discord, ntfy, pagerduty, teams-workflows, pushover, matrix, opsgenie, google-chat, mattermost, gotify, zulip, pager: the URL posted to (http or https, a public host)',
    );
    expect(Object.keys(descriptionsOf(channelConfigOutput([...NOTIFIERS, pager])))).to.include('pagerKey');
  });

  it('refuse a field declared two ways', () => {
    const unlike: NotifierDescriptor = { ...pager, fields: [{ ...pager.fields[0], input: { kind: 'string', max: 100 } }] };
    expect(() => channelConfigInput([...NOTIFIERS, unlike])).to.throw(/url of pager/);
  });
});
