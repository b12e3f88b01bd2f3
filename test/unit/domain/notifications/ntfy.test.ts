import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf } from '../../../../src/domain/notifications/notifiers';
import { NTFY_MESSAGE_MAX_BYTES, truncateUtf8 } from '../../../../src/domain/notifications/notifiers/ntfy';
import { expectAppError } from '../../../support/expect-app-error';

const SERVER = 'https://ntfy.example.com/';
const TOKEN = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';
const config = { url: SERVER, topic: 'ops_alerts-1', token: TOKEN, messagePrefix: null };

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

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

describe('the ntfy notifier (src/domain/notifications/notifiers/ntfy.ts)', () => {
  describe('its config', () => {
    it('keeps the server URL, the topic and the token; no token and no prefix are stored as null', () => {
      expect(normalizeChannelConfig('ntfy', { url: 'https://ntfy.example.com', topic: 'ops' })).to.deep.equal({
        url: SERVER,
        topic: 'ops',
        token: null,
        messagePrefix: null,
      });
      expect(normalizeChannelConfig('ntfy', { ...config, token: '' }).token).to.equal(null);
      expect(normalizeChannelConfig('ntfy', config)).to.deep.equal(config);
    });

    it('refuses a missing topic and one ntfy would not take, naming config.topic', () => {
      expectAppError(() => normalizeChannelConfig('ntfy', { url: SERVER }), 'invalidRequestBody', {
        field: 'config.topic',
        reason: 'required',
      });
      for (const topic of ['', 'ops alerts', 'ops/alerts', 'alerts!', 'x'.repeat(65), 'über']) {
        expectAppError(() => normalizeChannelConfig('ntfy', { url: SERVER, topic }), 'invalidRequestBody', {
          field: 'config.topic',
          reason: 'notATopic',
        });
      }
      expect(normalizeChannelConfig('ntfy', { url: SERVER, topic: 'x'.repeat(64) }).topic).to.have.length(64);
    });

    it('refuses a token that cannot be sent as a header value, naming config.token', () => {
      for (const token of ['tk_a b', 'tk_a\r\nX-Injected: 1', 'tk_é']) {
        expectAppError(() => normalizeChannelConfig('ntfy', { url: SERVER, topic: 'ops', token }), 'invalidRequestBody', {
          field: 'config.token',
          reason: 'badToken',
        });
      }
    });

    it('judges the server URL by the channel URL rule, as every posted URL', () => {
      expectAppError(() => normalizeChannelConfig('ntfy', { topic: 'ops' }), 'invalidRequestBody', {
        field: 'config.url',
        reason: 'required',
      });
      expectAppError(() => normalizeChannelConfig('ntfy', { url: 'http://127.0.0.1/', topic: 'ops' }), 'invalidRequestBody', {
        field: 'config.url',
        reason: 'nonPublicAddress',
      });
      expectAppError(() => normalizeChannelConfig('ntfy', { url: SERVER, topic: 'ops', headers: {} }), 'invalidRequestBody');
    });

    it('reaches whoever reads its topic: two channels are compared by topic, not by their (shared) server', () => {
      expect(recipientsOf('ntfy', config)).to.deep.equal(['ops_alerts-1']);
    });
  });

  describe('what it publishes (JSON to the server root)', () => {
    it('an opened incident: max priority, the siren tag, the bearer token', () => {
      expect(postRequestOf('ntfy', aMessage(), config)).to.deep.equal({
        url: SERVER,
        body: { topic: 'ops_alerts-1', title: 'Incident opened', message: 'Shop is down', priority: 5, tags: ['rotating_light'] },
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
    });

    it('a resolved incident: low priority, the check mark; no Authorization without a token; the prefix before the title', () => {
      const request = postRequestOf('ntfy', aMessage({ event: 'incident.resolved', summary: 'Shop is up' }), {
        ...config,
        token: null,
        messagePrefix: '[prod]',
      });
      expect(request).to.deep.equal({
        url: SERVER,
        body: { topic: 'ops_alerts-1', title: '[prod] Incident resolved', message: 'Shop is up', priority: 2, tags: ['white_check_mark'] },
        headers: {},
      });
    });

    it('a storm digest reads as the transition it gathers, its incidents listed in the message', () => {
      const digest = aMessage({
        event: 'incident.digest',
        summary: '3 monitors of Acme are down',
        incidentId: null,
        data: {
          digestOf: 'incident.opened',
          count: 3,
          incidents: [
            { summary: 'Shop is down', occurredAt: '2026-11-01T00:00:00.000Z' },
            { summary: 'API is down', occurredAt: '2026-11-01T00:00:01.000Z' },
          ],
        },
      });
      expect(postRequestOf('ntfy', digest, config)!.body).to.deep.equal({
        topic: 'ops_alerts-1',
        title: 'Monitors down',
        message:
          '3 monitors of Acme are down\n\n- Shop is down (2026-11-01T00:00:00.000Z)\n- API is down (2026-11-01T00:00:01.000Z)\n- and 1 more',
        priority: 5,
        tags: ['rotating_light'],
      });
      const recovered = aMessage({
        event: 'incident.digest',
        summary: 'recovered',
        data: { digestOf: 'incident.resolved', incidents: [] },
      });
      expect(postRequestOf('ntfy', recovered, config)!.body).to.deep.include({
        title: 'Monitors recovered',
        priority: 2,
        tags: ['white_check_mark'],
      });
    });

    it('a test message: default priority, saying it is a test', () => {
      const test = aMessage({ event: 'test', summary: 'This is a test notification', incidentId: null, data: { test: true } });
      expect(postRequestOf('ntfy', test, config)!.body).to.deep.equal({
        topic: 'ops_alerts-1',
        title: 'Test notification',
        message: 'This is a test notification',
        priority: 3,
        tags: ['test_tube'],
      });
    });

    it("a manual alert's priority and tag follow its severity", () => {
      const alert = (severity: string) => aMessage({ event: 'alert.manual', data: { severity, message: 'Power work tonight' } });
      const bodyOf = (severity: string) => postRequestOf('ntfy', alert(severity), config)!.body as Record<string, unknown>;
      expect(bodyOf('critical')).to.deep.include({ title: 'Critical alert', priority: 5, message: 'Shop is down\n\nPower work tonight' });
      expect(bodyOf('warning')).to.deep.include({ priority: 4, tags: ['warning'] });
      expect(bodyOf('info')).to.deep.include({ priority: 3, tags: ['information_source'] });
    });

    it('gives every priority within ntfy’s 1 to 5', () => {
      const events = [
        'incident.acknowledged',
        'incident.reminder',
        'certificate.expired',
        'maintenance.started',
        'channel.failing',
      ] as const;
      for (const event of events)
        expect((postRequestOf('ntfy', aMessage({ event }), config)!.body as { priority: number }).priority).to.be.within(1, 5);
    });
  });

  describe('the message size (ntfy takes 4096 bytes)', () => {
    it('cuts a long message to 4096 bytes of UTF-8 at a character boundary, saying so with an ellipsis', () => {
      const long = aMessage({ summary: '🚨é'.repeat(2000) });
      const { message } = postRequestOf('ntfy', long, config)!.body as { message: string };
      expect(utf8Bytes(message))
        .to.be.at.most(NTFY_MESSAGE_MAX_BYTES)
        .and.above(NTFY_MESSAGE_MAX_BYTES - 6);
      expect(message.endsWith('…')).to.equal(true);
      expect(message).to.not.match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      expect(long.summary.startsWith(message.slice(0, -1))).to.equal(true);
    });

    it('leaves a message that fits as it is, to the byte', () => {
      expect(truncateUtf8('a'.repeat(4096), 4096)).to.equal('a'.repeat(4096));
      expect(truncateUtf8('é'.repeat(2048), 4096)).to.equal('é'.repeat(2048));
      expect(truncateUtf8('é'.repeat(2049), 4096)).to.equal(`${'é'.repeat(2046)}…`);
      expect(truncateUtf8('abcd🚨', 7)).to.equal('abcd…');
    });
  });
});
