import { expect } from 'chai';
import {
  chatPayload,
  emailContent,
  webhookPayload,
  type NotificationMessage,
} from '../../../../src/domain/notifications/notification-message';

const message: NotificationMessage = {
  id: '7b0f6a36-3c1e-4c5e-9a52-0d3f0b8f2a11',
  event: 'incident.opened',
  occurredAt: '2026-11-23T10:00:00.000Z',
  summary: 'shop.example.com is down',
  incidentId: 'inc-1',
  monitorId: 42,
  customerId: 7,
  data: { statusCode: 503, monitorPublicId: '5d2b3c8e-8a53-4f0b-9a0e-3c0d1b2a4f61' },
};

describe('notification messages', () => {
  it('a webhook carries the event, its time, what it concerns (a monitor by its public id, never its internal number), and the delivery id', () => {
    expect(webhookPayload(message)).to.deep.equal({
      id: message.id,
      event: 'incident.opened',
      occurredAt: '2026-11-23T10:00:00.000Z',
      summary: 'shop.example.com is down',
      incident: { id: 'inc-1' },
      monitor: { id: '5d2b3c8e-8a53-4f0b-9a0e-3c0d1b2a4f61' },
      customer: { id: 7 },
      data: message.data,
    });
    expect(JSON.stringify(webhookPayload(message))).not.to.match(/"id":42/);
    expect(webhookPayload({ ...message, incidentId: null, monitorId: null, customerId: null })).to.include({
      incident: null,
      monitor: null,
      customer: null,
    });
  });

  it('Slack gets {text, blocks} with the prefix in the text', () => {
    const slack = chatPayload('slack', message, '[prod]');
    expect(slack.text).to.equal('[prod] Incident opened: shop.example.com is down');
    expect(slack.blocks).to.have.length(3);
  });

  it('Discord gets {content, embeds}; Teams a MessageCard', () => {
    const discord = chatPayload('discord', message, null);
    expect(discord).to.deep.equal({
      content: 'Incident opened: shop.example.com is down',
      embeds: [
        { title: 'Incident opened', description: 'shop.example.com is down', color: 0xd93025, timestamp: '2026-11-23T10:00:00.000Z' },
      ],
    });
    const teams = chatPayload('teams', message, null);
    expect(teams).to.include({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      themeColor: 'd93025',
      title: 'Incident opened',
    });
  });

  it('an e-mail has a subject naming the event and a plain-text body with the incident', () => {
    const mail = emailContent(message);
    expect(mail.subject).to.equal('Incident opened: shop.example.com is down');
    expect(mail.text).to.include('Incident: inc-1').and.include('At: 2026-11-23T10:00:00.000Z');
  });
});
