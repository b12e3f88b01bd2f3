import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf, secretFields } from '../../../../src/domain/notifications/notifiers';
import { TEAMS_WORKFLOWS_TEXT_MAX_BYTES } from '../../../../src/domain/notifications/notifiers/teams-workflows';
import { expectAppError } from '../../../support/expect-app-error';

const URL = 'https://prod-01.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=s3cr3t';
const config = { url: URL, messagePrefix: null };

const aMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: 'd1',
  event: 'incident.opened',
  occurredAt: '2026-11-01T00:00:00.000Z',
  summary: 'Shop is down',
  incidentId: 'i1',
  monitorId: 1,
  customerId: 1,
  data: {},
  ...overrides,
});

type Card = { type: string; version: string; body: Array<Record<string, unknown>>; msteams: unknown };
const cardOf = (message: NotificationMessage, c: Record<string, unknown> = config): Card => {
  const body = postRequestOf('teams-workflows', message, c)!.body as { attachments: Array<{ content: Card }> };
  return body.attachments[0]!.content;
};

describe('the Teams Workflows notifier (src/domain/notifications/notifiers/teams-workflows.ts)', () => {
  it('keeps its webhook URL as a secret (its signature is in the query) and refuses a missing or private one', () => {
    expect(normalizeChannelConfig('teams-workflows', { url: URL })).to.deep.equal(config);
    expect(secretFields('teams-workflows')).to.deep.equal(['url']);
    expect(recipientsOf('teams-workflows', config)).to.deep.equal([URL]);
    expectAppError(() => normalizeChannelConfig('teams-workflows', {}), 'invalidRequestBody', { field: 'config.url', reason: 'required' });
    expectAppError(() => normalizeChannelConfig('teams-workflows', { url: 'http://10.0.0.1/x' }), 'invalidRequestBody', {
      field: 'config.url',
      reason: 'nonPublicAddress',
    });
  });

  it('posts a message whose one attachment is an Adaptive Card 1.4, to the URL as is, with no header of its own', () => {
    const request = postRequestOf('teams-workflows', aMessage(), config)!;
    expect(request.url).to.equal(URL);
    expect(request.headers).to.equal(undefined);
    expect(request.method).to.equal(undefined);
    expect(request.body).to.deep.equal({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: 'Incident opened', weight: 'bolder', size: 'medium', color: 'attention', wrap: true },
              { type: 'TextBlock', text: 'Shop is down', wrap: true },
              {
                type: 'FactSet',
                facts: [
                  { title: 'Event', value: 'incident.opened' },
                  { title: 'At', value: '2026-11-01T00:00:00.000Z' },
                ],
              },
            ],
            msteams: { width: 'Full' },
          },
        },
      ],
    });
  });

  it('colours the title by the event and puts the prefix before it', () => {
    const resolved = cardOf(aMessage({ event: 'incident.resolved' }), { ...config, messagePrefix: '[prod]' });
    expect(resolved.body[0]).to.deep.include({ text: '[prod] Incident resolved', color: 'good' });
    expect(cardOf(aMessage({ event: 'incident.acknowledged' })).body[0]).to.deep.include({ color: 'warning' });
    expect(cardOf(aMessage({ event: 'test' })).body[0]).to.deep.include({ color: 'accent' });
    expect(cardOf(aMessage({ event: 'maintenance.started' })).body[0]).to.deep.include({ color: 'default' });
  });

  it('lists a digest’s incidents in the body and cuts a long body under Teams’ message size', () => {
    const digest = aMessage({
      event: 'incident.digest',
      summary: '2 monitors are down',
      data: { digestOf: 'incident.opened', incidents: [{ summary: 'Shop is down', occurredAt: '2026-11-01T00:00:00.000Z' }] },
    });
    expect(cardOf(digest).body[1]).to.deep.include({ text: '2 monitors are down\n\n- Shop is down (2026-11-01T00:00:00.000Z)' });
    const long = cardOf(aMessage({ summary: 'é'.repeat(20_000) }));
    const text = long.body[1]!.text as string;
    expect(Buffer.byteLength(text)).to.be.at.most(TEAMS_WORKFLOWS_TEXT_MAX_BYTES);
    expect(text.endsWith('…')).to.equal(true);
    expect(
      Buffer.byteLength(JSON.stringify(postRequestOf('teams-workflows', aMessage({ summary: '<'.repeat(40_000) }), config)!.body)),
    ).to.be.below(28 * 1024);
  });
});
