import { expect } from 'chai';
import { CHANNEL_TYPES } from '../../../src/domain/notifications/channel-config';
import { entryOfChannel, urlIsSecret, type Actual } from '../../../src/interfaces/cli/resources';

const aChannel = (kind: string, url: string): Actual => ({
  type: 'channel',
  key: 'ops-alerts',
  kind,
  customer: null,
  id: '0b7e9c1e-4a8f-4c53-9d2f-5f0e6f1a2b3c',
  fields: { name: 'Ops', type: kind, config: { url }, events: ['incident.opened'], enabled: true, isDefault: false },
});

describe('monitoring as code: the entry export writes for a channel', () => {
  it('writes a chat channel URL as a reference and keeps a webhook URL in clear (one decision per channel type)', () => {
    const url = 'https://hooks.example.com/services/T0/B0/secret';
    for (const type of CHANNEL_TYPES) {
      const config = entryOfChannel(aChannel(type, url), null).config as { url: string };
      expect(config.url, type).to.equal(urlIsSecret(type) ? '${env:WSM_OPS_ALERTS_URL}' : url);
    }
    expect(CHANNEL_TYPES.filter((type) => urlIsSecret(type))).to.deep.equal([
      'slack',
      'teams',
      'discord',
      'teams-workflows',
      'google-chat',
      'mattermost',
    ]);
  });

  it("writes an ntfy channel's access token as a reference, its server URL and topic in clear, no token as null", () => {
    const config = { url: 'https://ntfy.sh/', topic: 'ops', token: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2', messagePrefix: null };
    const ntfy = (c: Record<string, unknown>): Actual => ({
      ...aChannel('ntfy', c.url as string),
      fields: { ...aChannel('ntfy', '').fields, type: 'ntfy', config: c },
    });
    expect(entryOfChannel(ntfy(config), null).config).to.deep.equal({ ...config, token: '${env:WSM_OPS_ALERTS_TOKEN}' });
    expect(entryOfChannel(ntfy({ ...config, token: null }), null).config).to.deep.equal({ ...config, token: null });
  });

  it("writes a telegram channel's bot token as a reference, its chat, topic and server in clear", () => {
    const config = {
      botToken: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0',
      chatId: '-1001234567890',
      threadId: '7',
      apiUrl: 'https://bots.example.com/',
      messagePrefix: null,
    };
    const telegram: Actual = { ...aChannel('telegram', ''), fields: { ...aChannel('telegram', '').fields, type: 'telegram', config } };
    const written = entryOfChannel(telegram, null).config;
    expect(written).to.deep.equal({ ...config, botToken: '${env:WSM_OPS_ALERTS_BOT_TOKEN}' });
    expect(JSON.stringify(written)).to.not.include('AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0');
  });

  it("writes opsgenie's and zulip's API keys and gotify's application token as references, their servers, bot and channel in clear", () => {
    const of = (type: string, config: Record<string, unknown>): Actual => ({
      ...aChannel(type, ''),
      fields: { ...aChannel(type, '').fields, type, config },
    });
    const opsgenie = { apiKey: '0b2c8f3e-4d1a-4e5b-9c7d-6a8f0e1b2c3d', url: 'https://api.eu.opsgenie.com/', messagePrefix: null };
    expect(entryOfChannel(of('opsgenie', opsgenie), null).config).to.deep.equal({ ...opsgenie, apiKey: '${env:WSM_OPS_ALERTS_API_KEY}' });
    const gotify = { url: 'https://push.example.com/', apiToken: 'AbCdEf0123456_x', messagePrefix: null };
    expect(entryOfChannel(of('gotify', gotify), null).config).to.deep.equal({ ...gotify, apiToken: '${env:WSM_OPS_ALERTS_API_TOKEN}' });
    const zulip = {
      url: 'https://chat.example.com/',
      botEmail: 'bot@chat.example.com',
      apiKey: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
      stream: 'ops',
      streamTopic: 'alerts',
      messagePrefix: null,
    };
    expect(entryOfChannel(of('zulip', zulip), null).config).to.deep.equal({ ...zulip, apiKey: '${env:WSM_OPS_ALERTS_API_KEY}' });
  });

  it('keeps the URL of a type it does not know in clear', () => {
    expect((entryOfChannel(aChannel('carrier-pigeon', 'https://x.example.com/'), null).config as { url: string }).url).to.equal(
      'https://x.example.com/',
    );
  });
});
