import { expect } from 'chai';
import { CHANNEL_TYPES, normalizeChannelConfig, type ChannelType } from '../../../../src/domain/notifications/channel-config';
import { chatPayload, type NotificationMessage } from '../../../../src/domain/notifications/notification-message';
import { CHAT_TYPES, fieldsOf, isChatType, NOTIFIERS, notifierOf, secretFields } from '../../../../src/domain/notifications/notifiers';
import type { ChannelConfig, NotifierDescriptor, NotifierField } from '../../../../src/domain/notifications/notifiers/notifier';

/** Every field a ChannelConfig may hold: a descriptor names only these. */
const CONFIG_FIELDS: readonly (keyof ChannelConfig)[] = [
  'url',
  'headers',
  'recipients',
  'phoneNumbers',
  'messagePrefix',
  'topic',
  'token',
  'routingKey',
  'botToken',
  'chatId',
  'threadId',
  'apiUrl',
  'appToken',
  'userKey',
  'roomId',
  'accessToken',
  'apiKey',
  'channel',
  'apiToken',
  'botEmail',
  'stream',
  'streamTopic',
  'userIds',
];

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

describe('notifier descriptors (src/domain/notifications/notifiers)', () => {
  it('have unique types, each with a label', () => {
    const types = NOTIFIERS.map((n) => n.type);
    expect(new Set(types).size).to.equal(types.length);
    for (const n of NOTIFIERS) expect(n.label.trim(), n.type).to.not.equal('');
  });

  it('mark every config field, once, with a label and a one-line help', () => {
    for (const n of NOTIFIERS) {
      const names = n.fields.map((f) => f.name);
      expect(names, n.type).to.not.be.empty;
      expect(new Set(names).size, n.type).to.equal(names.length);
      for (const f of n.fields) {
        expect(CONFIG_FIELDS, `${n.type}.${f.name}`).to.include(f.name);
        expect(['target', 'secret', 'plain'], `${n.type}.${f.name}`).to.include(f.mark);
        expect(f.help, `${n.type}.${f.name}`).to.match(/^\S[^\n]*$/);
        expect(f.label, `${n.type}.${f.name}`).to.match(/^\S[^\n]{0,40}$/);
      }
    }
  });

  it('declare a field several types take alike: the same input and help wherever it appears', () => {
    const first = new Map<string, { type: string; field: NotifierField }>();
    for (const n of NOTIFIERS as readonly NotifierDescriptor[])
      for (const field of n.fields) {
        const seen = first.get(field.name);
        if (!seen) first.set(field.name, { type: n.type, field });
        else {
          expect(field.input, `${n.type}.${field.name} vs ${seen.type}`).to.deep.equal(seen.field.input);
          expect(field.help, `${n.type}.${field.name} vs ${seen.type}`).to.equal(seen.field.help);
        }
      }
    expect([...first.keys()]).to.deep.equal(CONFIG_FIELDS);
  });

  it('give every field a sane input shape', () => {
    for (const n of NOTIFIERS as readonly NotifierDescriptor[])
      for (const { name, input } of n.fields) {
        const bounds =
          input.kind === 'list'
            ? [input.itemMax, input.min, input.max]
            : input.kind === 'string'
              ? [input.max]
              : [input.nameMax, input.valueMax];
        for (const bound of bounds) expect(Number.isInteger(bound) && bound > 0, `${n.type}.${name}`).to.equal(true);
        if (input.kind === 'list') expect(input.min, `${n.type}.${name}`).to.be.at.most(input.max);
      }
  });

  it('have a sample that normalizes to itself, with nothing but their own fields', () => {
    for (const n of NOTIFIERS) {
      expect(normalizeChannelConfig(n.type, n.sample), n.type).to.deep.equal(n.sample);
      expect(fieldsOf(n.type), n.type).to.include.members(Object.keys(n.sample));
    }
  });

  it('refuse a field of another type before their own rule, as the config check always did', () => {
    expect(() => normalizeChannelConfig('email', { ...notifierOf('email').sample, url: 'https://x.example.com/' }))
      .to.throw()
      .with.property('code', 'invalidRequestBody');
  });

  it('give a chat type a body builder, and only a chat type', () => {
    for (const n of NOTIFIERS as readonly NotifierDescriptor<ChannelType>[])
      expect(typeof n.chat === 'function', n.type).to.equal(isChatType(n.type));
    const bodies = CHAT_TYPES.map((type) => JSON.stringify(chatPayload(type, message, null)));
    expect(new Set(bodies).size).to.equal(CHAT_TYPES.length);
  });

  it('derive the lists as they were written before the descriptors', () => {
    expect([...CHANNEL_TYPES]).to.deep.equal([
      'webhook',
      'email',
      'sms',
      'slack',
      'teams',
      'discord',
      'ntfy',
      'pagerduty',
      'telegram',
      'teams-workflows',
      'pushover',
      'matrix',
      'voice',
      'opsgenie',
      'google-chat',
      'mattermost',
      'gotify',
      'zulip',
      'web-push',
    ]);
    expect([...CHAT_TYPES]).to.deep.equal(['slack', 'teams', 'discord', 'teams-workflows']);
    expect(CHANNEL_TYPES.filter((type) => secretFields(type).includes('url'))).to.deep.equal([
      'slack',
      'teams',
      'discord',
      'teams-workflows',
      'google-chat',
      'mattermost',
    ]);
    expect(CHANNEL_TYPES.flatMap((type) => secretFields(type))).to.deep.equal([
      'url',
      'url',
      'url',
      'token',
      'routingKey',
      'botToken',
      'url',
      'appToken',
      'userKey',
      'accessToken',
      'apiKey',
      'url',
      'url',
      'apiToken',
      'apiKey',
    ]);
    expect(Object.fromEntries(CHANNEL_TYPES.map((type) => [type, fieldsOf(type)]))).to.deep.equal({
      webhook: ['url', 'headers'],
      email: ['recipients'],
      sms: ['phoneNumbers'],
      slack: ['url', 'messagePrefix'],
      teams: ['url', 'messagePrefix'],
      discord: ['url', 'messagePrefix'],
      ntfy: ['url', 'topic', 'token', 'messagePrefix'],
      pagerduty: ['routingKey', 'url', 'messagePrefix'],
      telegram: ['botToken', 'chatId', 'threadId', 'apiUrl', 'messagePrefix'],
      'teams-workflows': ['url', 'messagePrefix'],
      pushover: ['appToken', 'userKey', 'url', 'messagePrefix'],
      matrix: ['url', 'roomId', 'accessToken', 'messagePrefix'],
      voice: ['phoneNumbers'],
      opsgenie: ['apiKey', 'url', 'messagePrefix'],
      'google-chat': ['url', 'messagePrefix'],
      mattermost: ['url', 'channel', 'messagePrefix'],
      gotify: ['url', 'apiToken', 'messagePrefix'],
      zulip: ['url', 'botEmail', 'apiKey', 'stream', 'streamTopic', 'messagePrefix'],
      'web-push': ['userIds'],
    });
    expect(notifierOf('teams').label).to.equal('Microsoft Teams');
  });
});
