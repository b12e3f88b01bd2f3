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
    expect(CHANNEL_TYPES.filter((type) => urlIsSecret(type))).to.deep.equal(['slack', 'teams', 'discord']);
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

  it('keeps the URL of a type it does not know in clear', () => {
    expect((entryOfChannel(aChannel('carrier-pigeon', 'https://x.example.com/'), null).config as { url: string }).url).to.equal(
      'https://x.example.com/',
    );
  });
});
