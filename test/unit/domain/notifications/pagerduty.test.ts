import { expect } from 'chai';
import { CHANNEL_EVENTS } from '../../../../src/domain/notifications/channel-events';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf } from '../../../../src/domain/notifications/notifiers';
import { PAGERDUTY_EVENTS_URL, PAGERDUTY_SUMMARY_MAX } from '../../../../src/domain/notifications/notifiers/pagerduty';
import { expectAppError } from '../../../support/expect-app-error';

const KEY = 'R0123456789abcdefghijklmnopqrstu';
const EU = 'https://events.eu.pagerduty.com/v2/enqueue';
const config = { routingKey: KEY, url: PAGERDUTY_EVENTS_URL, messagePrefix: null };

const aMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: 'd1',
  event: 'incident.opened',
  occurredAt: '2026-11-01T00:00:00.000Z',
  summary: 'Shop is down',
  incidentId: 'inc_7Qm2',
  monitorId: 1,
  customerId: 1,
  data: { monitorPublicId: 'mon_Ab3' },
  ...overrides,
});
type Event = {
  routing_key: string;
  event_action: string;
  dedup_key: string;
  payload?: { summary: string; source: string; severity: string; timestamp?: string; class?: string; custom_details?: unknown };
  client?: string;
};
const eventOf = (message: NotificationMessage, c: Record<string, unknown> = config) =>
  postRequestOf('pagerduty', message, c)!.body as Event;

describe('the PagerDuty notifier (src/domain/notifications/notifiers/pagerduty.ts)', () => {
  describe('its config', () => {
    it('keeps the routing key; the URL defaults to the US endpoint, the EU one kept; no prefix is null', () => {
      expect(normalizeChannelConfig('pagerduty', { routingKey: KEY })).to.deep.equal(config);
      expect(normalizeChannelConfig('pagerduty', { routingKey: KEY, url: EU, messagePrefix: '[prod]' })).to.deep.equal({
        routingKey: KEY,
        url: EU,
        messagePrefix: '[prod]',
      });
      expect(normalizeChannelConfig('pagerduty', config)).to.deep.equal(config);
    });

    it('refuses a missing routing key and one that is not 32 letters and digits, naming config.routingKey', () => {
      expectAppError(() => normalizeChannelConfig('pagerduty', {}), 'invalidRequestBody', {
        field: 'config.routingKey',
        reason: 'required',
      });
      for (const routingKey of ['', KEY.slice(1), `${KEY}x`, `${KEY.slice(1)}-`, `${KEY.slice(1)} `, `${KEY.slice(1)}é`]) {
        expectAppError(() => normalizeChannelConfig('pagerduty', { routingKey }), 'invalidRequestBody', {
          field: 'config.routingKey',
          reason: 'notARoutingKey',
        });
      }
    });

    it('judges the URL by the channel URL rule, as every posted URL', () => {
      expectAppError(
        () => normalizeChannelConfig('pagerduty', { routingKey: KEY, url: 'http://10.0.0.1/v2/enqueue' }),
        'invalidRequestBody',
        {
          field: 'config.url',
          reason: 'nonPublicAddress',
        },
      );
      expectAppError(() => normalizeChannelConfig('pagerduty', { routingKey: KEY, topic: 'x' }), 'invalidRequestBody');
    });

    it('reaches the PagerDuty service of its routing key: two channels are compared by it', () => {
      expect(recipientsOf('pagerduty', config)).to.deep.equal([KEY]);
    });
  });

  describe('the event it posts (Events API v2)', () => {
    it('an opened incident triggers a critical alert keyed by the incident, the routing key in the body, no headers of its own', () => {
      expect(postRequestOf('pagerduty', aMessage(), { ...config, messagePrefix: '[prod]' })).to.deep.equal({
        url: PAGERDUTY_EVENTS_URL,
        body: {
          routing_key: KEY,
          event_action: 'trigger',
          dedup_key: 'incident-inc_7Qm2',
          payload: {
            summary: '[prod] Incident opened: Shop is down',
            source: 'monitor mon_Ab3',
            severity: 'critical',
            timestamp: '2026-11-01T00:00:00.000Z',
            class: 'incident.opened',
            custom_details: { monitorPublicId: 'mon_Ab3' },
          },
          client: 'monitoring-service',
        },
      });
    });

    it('one incident is one alert: opened and reminded trigger, acknowledged acknowledges, resolved resolves, one dedup key', () => {
      const opened = eventOf(aMessage({ id: 'd1' }));
      const reminder = eventOf(aMessage({ id: 'd2', event: 'incident.reminder' }));
      const acknowledged = eventOf(aMessage({ id: 'd3', event: 'incident.acknowledged' }));
      const resolved = eventOf(aMessage({ id: 'd4', event: 'incident.resolved', summary: 'Shop is up' }));
      expect([opened, reminder, acknowledged, resolved].map((e) => [e.event_action, e.dedup_key, e.payload?.severity])).to.deep.equal([
        ['trigger', 'incident-inc_7Qm2', 'critical'],
        ['trigger', 'incident-inc_7Qm2', 'critical'],
        ['acknowledge', 'incident-inc_7Qm2', undefined],
        ['resolve', 'incident-inc_7Qm2', undefined],
      ]);
      // Only a trigger carries a payload: acknowledge and resolve are the three fields the docs name.
      expect(acknowledged).to.deep.equal({ routing_key: KEY, event_action: 'acknowledge', dedup_key: 'incident-inc_7Qm2' });
      expect(resolved).to.deep.equal({ routing_key: KEY, event_action: 'resolve', dedup_key: 'incident-inc_7Qm2' });
    });

    it('cuts the summary to 1024 characters, an ellipsis saying so, no surrogate pair split', () => {
      const long = eventOf(aMessage({ summary: 'x'.repeat(2000) })).payload!.summary;
      expect(long).to.have.length(PAGERDUTY_SUMMARY_MAX);
      expect(long.endsWith('…')).to.equal(true);
      expect(long.startsWith('Incident opened: xxx')).to.equal(true);
      const emoji = eventOf(aMessage({ summary: '🚨'.repeat(600) })).payload!.summary;
      expect(emoji.length).to.be.at.most(PAGERDUTY_SUMMARY_MAX);
      expect(emoji).to.not.match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      const fits = 'y'.repeat(PAGERDUTY_SUMMARY_MAX - 'Incident opened: '.length);
      expect(eventOf(aMessage({ summary: fits })).payload!.summary).to.equal(`Incident opened: ${fits}`);
    });

    it('maps severities: certificates and domains warn then err, a listed IP and a burning budget err, a test informs', () => {
      const severityOf = (overrides: Partial<NotificationMessage>) =>
        eventOf(aMessage({ incidentId: null, ...overrides })).payload!.severity;
      expect(severityOf({ event: 'certificate.expiring' })).to.equal('warning');
      expect(severityOf({ event: 'certificate.expired' })).to.equal('error');
      expect(severityOf({ event: 'domain.expiring', data: { customerDomainId: 'dom_1', band: 'warning' } })).to.equal('warning');
      expect(severityOf({ event: 'domain.expiring', data: { customerDomainId: 'dom_1', band: 'error' } })).to.equal('error');
      expect(severityOf({ event: 'domain.expired', data: { customerDomainId: 'dom_1' } })).to.equal('error');
      expect(severityOf({ event: 'ip.listed', data: { customerIpId: 'ip_1' } })).to.equal('error');
      expect(severityOf({ event: 'slo.burning', data: { objectiveId: 'slo_1' } })).to.equal('error');
      expect(severityOf({ event: 'maintenance.started', data: { maintenanceWindowId: 'mw_1' } })).to.equal('info');
      expect(severityOf({ event: 'channel.failing', data: { channelId: 'ch_1' } })).to.equal('warning');
      expect(severityOf({ event: 'test', data: { test: true } })).to.equal('info');
      for (const severity of ['critical', 'warning', 'info'])
        expect(severityOf({ event: 'alert.manual', data: { severity, message: null } })).to.equal(severity);
    });

    it('resolves an IP, a budget and a maintenance window with the key that triggered them', () => {
      const pairs = [
        ['ip.listed', 'ip.clean', { customerIpId: 'ip_1', ipAddress: '192.0.2.7' }, 'ip-ip_1'],
        ['slo.burning', 'slo.recovered', { objectiveId: 'slo_1' }, 'slo-slo_1'],
        ['maintenance.started', 'maintenance.ended', { maintenanceWindowId: 'mw_1' }, 'maintenance-mw_1'],
      ] as const;
      for (const [opens, closes, data, key] of pairs) {
        const opened = eventOf(aMessage({ id: 'a', event: opens, incidentId: null, data }));
        const closed = eventOf(aMessage({ id: 'b', event: closes, incidentId: null, data }));
        expect([opened.event_action, opened.dedup_key], opens).to.deep.equal(['trigger', key]);
        expect(closed, closes).to.deep.equal({ routing_key: KEY, event_action: 'resolve', dedup_key: key });
      }
      expect(
        eventOf(aMessage({ event: 'ip.listed', incidentId: null, data: { customerIpId: 'ip_1', ipAddress: '192.0.2.7' } })).payload!.source,
      ).to.equal('192.0.2.7');
    });

    it('gives a test message a key of its own (it stays open in PagerDuty until resolved there)', () => {
      const test = aMessage({
        id: 'd9',
        event: 'test',
        summary: 'This is a test',
        incidentId: null,
        monitorId: null,
        data: { test: true },
      });
      expect(eventOf(test)).to.deep.include({ event_action: 'trigger', dedup_key: 'test-d9' });
      expect(eventOf(test).payload).to.deep.include({
        severity: 'info',
        source: 'monitoring-service',
        summary: 'Test notification: This is a test',
      });
    });

    it("a storm's digests are one alert of the storm: triggered while monitors are down, resolved once all recovered", () => {
      const digest = (data: Record<string, unknown>) =>
        eventOf(
          aMessage({
            event: 'incident.digest',
            incidentId: null,
            monitorId: null,
            data: { stormStartedAt: '2026-11-01T00:00:00.000Z', ...data },
          }),
        );
      const started = digest({ digestOf: 'incident.opened', stage: 'started', down: 3, incidents: [] });
      const update = digest({ digestOf: 'incident.resolved', stage: 'update', down: 1, incidents: [] });
      const over = digest({ digestOf: 'incident.resolved', stage: 'over', down: 0, incidents: [] });
      const quiet = digest({ digestOf: 'incident.resolved', stage: 'over', down: 2, incidents: [] });
      const key = 'storm-1-2026-11-01T00:00:00.000Z';
      expect([started, update, over, quiet].map((e) => [e.event_action, e.dedup_key, e.payload?.severity])).to.deep.equal([
        ['trigger', key, 'critical'],
        ['trigger', key, 'error'],
        ['resolve', key, undefined],
        ['trigger', key, 'error'],
      ]);
      expect(started.payload!.class).to.equal('incident.digest of incident.opened');
    });

    it('gives every event an action of the enum, a key of at most 255 and a trigger a severity of the enum', () => {
      for (const event of [...CHANNEL_EVENTS, 'test', 'incident.digest', 'channel.failing'] as const) {
        const body = eventOf(aMessage({ event, data: {} }));
        expect(['trigger', 'acknowledge', 'resolve'], event).to.include(body.event_action);
        expect(body.dedup_key.length, event).to.be.within(1, 255);
        if (body.event_action === 'trigger') expect(['critical', 'error', 'warning', 'info'], event).to.include(body.payload!.severity);
      }
    });
  });
});
