import { expect } from 'chai';
import { CHANNEL_EVENTS } from '../../../../src/domain/notifications/channel-events';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf } from '../../../../src/domain/notifications/notifiers';
import { expectAppError } from '../../../support/expect-app-error';

const SERVER = 'https://push.example.com/';
const TOKEN = 'AbCdEf0123456_x';
const config = { url: SERVER, apiToken: TOKEN, messagePrefix: null };

const aMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: 'd1',
  event: 'incident.opened',
  occurredAt: '2026-11-01T00:00:00.000Z',
  summary: 'Shop is down',
  incidentId: 'inc_7Qm2',
  monitorId: 1,
  customerId: 1,
  data: {},
  ...overrides,
});
const priorityOf = (message: NotificationMessage) => (postRequestOf('gotify', message, config)!.body as { priority: number }).priority;

describe('the Gotify notifier (src/domain/notifications/notifiers/gotify.ts)', () => {
  describe('its config', () => {
    it('keeps the server URL and the application token, compared by token', () => {
      expect(normalizeChannelConfig('gotify', { url: 'https://push.example.com', apiToken: TOKEN })).to.deep.equal(config);
      expect(recipientsOf('gotify', config)).to.deep.equal([TOKEN]);
    });

    it('refuses a missing token and one that cannot be sent as a header, naming config.apiToken', () => {
      expectAppError(() => normalizeChannelConfig('gotify', { url: SERVER }), 'invalidRequestBody', {
        field: 'config.apiToken',
        reason: 'required',
      });
      for (const apiToken of ['Ab cd', 'Ab\r\nX-Injected: 1', 'Abé', 'x'.repeat(201)])
        expectAppError(() => normalizeChannelConfig('gotify', { url: SERVER, apiToken }), 'invalidRequestBody', {
          field: 'config.apiToken',
          reason: 'badToken',
        });
    });

    it('judges the server URL by the channel URL rule', () => {
      expectAppError(() => normalizeChannelConfig('gotify', { apiToken: TOKEN }), 'invalidRequestBody', {
        field: 'config.url',
        reason: 'required',
      });
      expectAppError(() => normalizeChannelConfig('gotify', { url: 'http://127.0.0.1:8080/', apiToken: TOKEN }), 'invalidRequestBody', {
        field: 'config.url',
        reason: 'nonPublicAddress',
      });
    });
  });

  describe('what it pushes', () => {
    it('{title, message, priority} to <server>/message, the token as X-Gotify-Key (not in the URL)', () => {
      expect(postRequestOf('gotify', aMessage(), { ...config, messagePrefix: '[prod]' })).to.deep.equal({
        url: 'https://push.example.com/message',
        body: { title: '[prod] Incident opened', message: 'Shop is down', priority: 8 },
        headers: { 'X-Gotify-Key': TOKEN },
      });
    });

    it('keeps a path of the server URL (a server behind a proxy)', () => {
      expect(postRequestOf('gotify', aMessage(), { ...config, url: 'https://example.com/gotify/' })!.url).to.equal(
        'https://example.com/gotify/message',
      );
    });

    it('sets the priority by event: the page 8, problems 7, news 5, good news 4; a manual alert by severity, a digest as what it gathers', () => {
      expect(priorityOf(aMessage({ event: 'incident.resolved' }))).to.equal(4);
      expect(priorityOf(aMessage({ event: 'certificate.expired' }))).to.equal(7);
      expect(priorityOf(aMessage({ event: 'test' }))).to.equal(5);
      const manual = (severity: string) => priorityOf(aMessage({ event: 'alert.manual', data: { severity } }));
      expect(['critical', 'warning', 'info', 'other'].map(manual)).to.deep.equal([8, 7, 5, 7]);
      expect(priorityOf(aMessage({ event: 'incident.digest', data: { digestOf: 'incident.resolved' } }))).to.equal(4);
      for (const event of CHANNEL_EVENTS) expect(priorityOf(aMessage({ event })), event).to.be.within(0, 10);
    });
  });
});
