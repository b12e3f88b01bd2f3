import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf, secretFields } from '../../../../src/domain/notifications/notifiers';
import {
  PUSHOVER_MESSAGE_MAX,
  PUSHOVER_MESSAGES_URL,
  PUSHOVER_TITLE_MAX,
  pushoverPriority,
} from '../../../../src/domain/notifications/notifiers/pushover';
import { expectAppError } from '../../../support/expect-app-error';

const APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const config = { appToken: APP, userKey: USER, url: PUSHOVER_MESSAGES_URL, messagePrefix: null };

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
const bodyOf = (message: NotificationMessage, c: Record<string, unknown> = config) =>
  postRequestOf('pushover', message, c)!.body as Record<string, unknown>;

describe('the Pushover notifier (src/domain/notifications/notifiers/pushover.ts)', () => {
  describe('its config', () => {
    it('keeps both keys, posts to the public Message API unless told otherwise; both keys are secrets', () => {
      expect(normalizeChannelConfig('pushover', { appToken: APP, userKey: USER })).to.deep.equal(config);
      expect(normalizeChannelConfig('pushover', { ...config, url: 'https://pushover.example.com/1/messages.json' }).url).to.equal(
        'https://pushover.example.com/1/messages.json',
      );
      expect(secretFields('pushover')).to.deep.equal(['appToken', 'userKey']);
    });

    it('refuses a missing or malformed key, naming the field', () => {
      expectAppError(() => normalizeChannelConfig('pushover', { userKey: USER }), 'invalidRequestBody', {
        field: 'config.appToken',
        reason: 'required',
      });
      expectAppError(() => normalizeChannelConfig('pushover', { appToken: APP }), 'invalidRequestBody', {
        field: 'config.userKey',
        reason: 'required',
      });
      for (const appToken of [APP.slice(1), `${APP}x`, `${APP.slice(1)}-`])
        expectAppError(() => normalizeChannelConfig('pushover', { appToken, userKey: USER }), 'invalidRequestBody', {
          field: 'config.appToken',
          reason: 'notAnAppToken',
        });
      expectAppError(() => normalizeChannelConfig('pushover', { appToken: APP, userKey: 'user@example.com' }), 'invalidRequestBody', {
        field: 'config.userKey',
        reason: 'notAUserKey',
      });
      expectAppError(() => normalizeChannelConfig('pushover', { ...config, url: 'http://127.0.0.1/' }), 'invalidRequestBody', {
        field: 'config.url',
        reason: 'nonPublicAddress',
      });
    });

    it('reaches the user or group of its key: two channels are compared by it, not by the shared API URL', () => {
      expect(recipientsOf('pushover', config)).to.deep.equal([USER]);
    });
  });

  describe('what it posts (JSON to /1/messages.json, the keys in the body)', () => {
    it('an opened incident: emergency priority, repeated every 60 s for an hour until acknowledged', () => {
      expect(postRequestOf('pushover', aMessage(), config)).to.deep.equal({
        url: PUSHOVER_MESSAGES_URL,
        body: {
          token: APP,
          user: USER,
          title: 'Incident opened',
          message: 'Shop is down',
          priority: 2,
          retry: 60,
          expire: 3600,
          timestamp: 1793491200,
        },
      });
    });

    it('keeps retry and expire within Pushover’s bounds (retry >= 30 s, expire <= 3 hours) and sends them only with priority 2', () => {
      const emergency = bodyOf(aMessage());
      expect(emergency.retry).to.be.at.least(30);
      expect(emergency.expire).to.be.at.most(10800);
      const resolved = bodyOf(aMessage({ event: 'incident.resolved', summary: 'Shop is up' }), { ...config, messagePrefix: '[prod]' });
      expect(resolved).to.deep.equal({
        token: APP,
        user: USER,
        title: '[prod] Incident resolved',
        message: 'Shop is up',
        priority: 0,
        timestamp: 1793491200,
      });
    });

    it('gives each event a priority within -2 to 2: a manual alert’s by severity, a digest’s as what it gathers', () => {
      const manual = (severity: string) => aMessage({ event: 'alert.manual', data: { severity, message: 'Power work' } });
      expect(pushoverPriority(manual('critical'))).to.equal(2);
      expect(bodyOf(manual('critical'))).to.include({ priority: 2, retry: 60, expire: 3600, message: 'Shop is down\n\nPower work' });
      expect(pushoverPriority(manual('warning'))).to.equal(1);
      expect(pushoverPriority(manual('info'))).to.equal(0);
      expect(pushoverPriority(aMessage({ event: 'incident.digest', data: { digestOf: 'incident.opened' } }))).to.equal(2);
      expect(pushoverPriority(aMessage({ event: 'incident.digest', data: { digestOf: 'incident.resolved' } }))).to.equal(0);
      expect(pushoverPriority(aMessage({ event: 'incident.reminder' }))).to.equal(1);
      expect(pushoverPriority(aMessage({ event: 'maintenance.started' }))).to.equal(-1);
      expect(bodyOf(aMessage({ event: 'test' })))
        .to.include({ priority: 0 })
        .and.not.have.property('retry');
    });

    it('cuts the message to 1024 characters and the title to 250, an ellipsis saying so', () => {
      const body = bodyOf(aMessage({ summary: 'x'.repeat(5000) }), { ...config, messagePrefix: 'p'.repeat(400) });
      expect((body.message as string).length).to.equal(PUSHOVER_MESSAGE_MAX);
      expect((body.title as string).length).to.equal(PUSHOVER_TITLE_MAX);
      expect(body.message as string).to.match(/…$/);
    });
  });
});
