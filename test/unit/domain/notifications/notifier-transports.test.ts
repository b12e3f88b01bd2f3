import { expect } from 'chai';
import { CHANNEL_TYPES, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import { chatPayload, webhookPayload, type NotificationMessage } from '../../../../src/domain/notifications/notification-message';
import { isSigned, NOTIFIERS, postRequestBy, postRequestOf, transportOf } from '../../../../src/domain/notifications/notifiers';
import type { NotifierDescriptor, NotifierField } from '../../../../src/domain/notifications/notifiers/notifier';

const message: NotificationMessage = {
  id: 'd1',
  event: 'incident.opened',
  occurredAt: '2026-11-01T00:00:00.000Z',
  summary: 'Shop is down',
  incidentId: 'i1',
  monitorId: 1,
  customerId: 1,
  data: {},
};

/** A type only this test knows, as a provider with a bot token would be: its URL built from a secret, an incident's id as its key. */
const bot: NotifierDescriptor = {
  type: 'bot',
  label: 'Bot',
  fields: [{ name: 'recipients', mark: 'target', label: 'Chats', help: 'Chats', input: { kind: 'list', itemMax: 64, min: 1, max: 1 } }],
  normalize: (config) => config,
  transport: 'post',
  post: ({ message, parts, config }) => ({
    url: `https://bot.example.com/bot${config.recipients![0]}/sendMessage`,
    body: { text: parts.headline, dedupKey: message.incidentId },
    headers: { 'X-Bot': 'yes' },
  }),
  sample: { recipients: ['123'] },
};

describe('notifier transports and what a post type sends (src/domain/notifications/notifiers)', () => {
  it('give every type a transport: webhook and chat services post, e-mail and SMS their own', () => {
    expect(Object.fromEntries(CHANNEL_TYPES.map((type) => [type, transportOf(type)]))).to.deep.equal({
      webhook: 'post',
      email: 'email',
      sms: 'sms',
      slack: 'post',
      teams: 'post',
      discord: 'post',
      ntfy: 'post',
      pagerduty: 'post',
      telegram: 'post',
      'teams-workflows': 'post',
      pushover: 'post',
      matrix: 'post',
      voice: 'voice',
      opsgenie: 'post',
      'google-chat': 'post',
      mattermost: 'post',
      gotify: 'post',
      zulip: 'post',
      'web-push': 'web-push',
    });
  });

  it('have every post type say what it posts for its sample, to a URL; no other type posts', () => {
    for (const n of NOTIFIERS as readonly NotifierDescriptor[]) {
      const request = postRequestBy(n, message, n.sample);
      if (n.transport === 'post')
        expect(request?.url, n.type)
          .to.be.a('string')
          .and.match(/^https:\/\//);
      else expect(request, n.type).to.equal(null);
    }
  });

  it('sign the webhook only, posting its payload with its own headers to its URL', () => {
    expect(CHANNEL_TYPES.filter(isSigned)).to.deep.equal(['webhook']);
    const config = { url: 'https://hooks.example.com/in', headers: { 'X-Team': 'ops' } };
    expect(postRequestOf('webhook', message, config)).to.deep.equal({
      url: config.url,
      body: webhookPayload(message),
      headers: config.headers,
    });
    expect(postRequestOf('webhook', message, { url: config.url })!.headers).to.deep.equal({});
  });

  it("post a chat service's body, its prefix in it, to its incoming-webhook URL with no headers of its own", () => {
    const config = { url: 'https://hooks.slack.com/services/T/B/x', messagePrefix: '[prod]' };
    expect(postRequestOf('slack', message, config)).to.deep.equal({ url: config.url, body: chatPayload('slack', message, '[prod]') });
  });

  it("publish ntfy's JSON to the server root: the topic in the body, the access token as a bearer", () => {
    const config = { url: 'https://ntfy.sh/', topic: 'ops', token: 'tk_x', messagePrefix: null };
    expect(postRequestOf('ntfy', message, config)).to.deep.equal({
      url: 'https://ntfy.sh/',
      body: { topic: 'ops', title: 'Incident opened', message: 'Shop is down', priority: 5, tags: ['rotating_light'] },
      headers: { Authorization: 'Bearer tk_x' },
    });
  });

  it('name who each type reaches (its recipient field), the channels compared by it', () => {
    for (const n of NOTIFIERS) {
      expect((n.fields as readonly NotifierField[]).filter((f) => f.recipient).length, n.type).to.be.at.least(1);
      expect(recipientsOf(n.type, n.sample), n.type).to.not.be.empty;
    }
  });

  it("take a new provider's own URL, body and headers from its descriptor alone", () => {
    expect(postRequestBy(bot, message, bot.sample)).to.deep.equal({
      url: 'https://bot.example.com/bot123/sendMessage',
      body: { text: 'Incident opened: Shop is down', dedupKey: 'i1' },
      headers: { 'X-Bot': 'yes' },
    });
  });
});
