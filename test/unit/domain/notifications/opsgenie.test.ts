import { expect } from 'chai';
import { CHANNEL_EVENTS } from '../../../../src/domain/notifications/channel-events';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf } from '../../../../src/domain/notifications/notifiers';
import {
  OPSGENIE_API_URL,
  OPSGENIE_DESCRIPTION_MAX,
  OPSGENIE_EU_API_URL,
  OPSGENIE_MESSAGE_MAX,
} from '../../../../src/domain/notifications/notifiers/opsgenie';
import { expectAppError } from '../../../support/expect-app-error';

const KEY = '0b2c8f3e-4d1a-4e5b-9c7d-6a8f0e1b2c3d';
const config = { apiKey: KEY, url: OPSGENIE_API_URL, messagePrefix: null };

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
const requestOf = (message: NotificationMessage, c: Record<string, unknown> = config) => postRequestOf('opsgenie', message, c)!;
const bodyOf = (message: NotificationMessage) => requestOf(message).body as Record<string, any>;

describe('the Opsgenie notifier (src/domain/notifications/notifiers/opsgenie.ts)', () => {
  describe('its config', () => {
    it('keeps the API key (lowercased); the URL defaults to the US host, the EU one kept; no prefix is null', () => {
      expect(normalizeChannelConfig('opsgenie', { apiKey: KEY.toUpperCase() })).to.deep.equal(config);
      expect(
        normalizeChannelConfig('opsgenie', { apiKey: KEY, url: 'https://api.eu.opsgenie.com', messagePrefix: '[prod]' }),
      ).to.deep.equal({
        apiKey: KEY,
        url: OPSGENIE_EU_API_URL,
        messagePrefix: '[prod]',
      });
      expect(normalizeChannelConfig('opsgenie', config)).to.deep.equal(config);
    });

    it('refuses a missing API key and one that is not a key, naming config.apiKey', () => {
      expectAppError(() => normalizeChannelConfig('opsgenie', {}), 'invalidRequestBody', { field: 'config.apiKey', reason: 'required' });
      for (const apiKey of [KEY.slice(1), `${KEY}0`, KEY.replace(/-/g, ''), `${KEY.slice(0, -1)}g`, `${KEY.slice(0, -1)}\n`])
        expectAppError(() => normalizeChannelConfig('opsgenie', { apiKey }), 'invalidRequestBody', {
          field: 'config.apiKey',
          reason: 'notAnApiKey',
        });
    });

    it('judges the URL by the channel URL rule, and is compared by API key', () => {
      expectAppError(() => normalizeChannelConfig('opsgenie', { apiKey: KEY, url: 'http://10.0.0.1/' }), 'invalidRequestBody', {
        field: 'config.url',
        reason: 'nonPublicAddress',
      });
      expect(recipientsOf('opsgenie', config)).to.deep.equal([KEY]);
    });
  });

  describe('what it sends (the Alert API)', () => {
    it('an opened incident: a P1 alert created at /v2/alerts, aliased by the incident, the key as GenieKey', () => {
      expect(requestOf(aMessage(), { ...config, messagePrefix: '[prod]' })).to.deep.equal({
        url: 'https://api.opsgenie.com/v2/alerts',
        headers: { Authorization: `GenieKey ${KEY}` },
        body: {
          message: '[prod] Incident opened: Shop is down',
          alias: 'incident-inc_7Qm2',
          description: 'Shop is down',
          priority: 'P1',
          tags: ['monitoring-service', 'incident.opened'],
          source: 'monitoring-service',
          details: { event: 'incident.opened', occurredAt: '2026-11-01T00:00:00.000Z' },
        },
      });
    });

    it('acknowledges and closes the same alert by its alias, on the EU host too', () => {
      const eu = { ...config, url: OPSGENIE_EU_API_URL };
      expect(requestOf(aMessage({ event: 'incident.acknowledged', summary: 'Shop is acknowledged' }), eu)).to.deep.equal({
        url: 'https://api.eu.opsgenie.com/v2/alerts/incident-inc_7Qm2/acknowledge?identifierType=alias',
        headers: { Authorization: `GenieKey ${KEY}` },
        body: { source: 'monitoring-service', note: 'Incident acknowledged: Shop is acknowledged' },
      });
      expect(requestOf(aMessage({ event: 'incident.resolved', summary: 'Shop is up' })).url).to.equal(
        'https://api.opsgenie.com/v2/alerts/incident-inc_7Qm2/close?identifierType=alias',
      );
      expect(requestOf(aMessage({ event: 'incident.reminder' })).url).to.equal('https://api.opsgenie.com/v2/alerts');
      expect(bodyOf(aMessage({ event: 'incident.reminder' }))).to.include({ alias: 'incident-inc_7Qm2', priority: 'P1' });
    });

    it('closes a watched IP, an error budget and a maintenance window by their counterpart, on the key that opened them', () => {
      const pairs: Array<[NotificationMessage['event'], NotificationMessage['event'], Record<string, unknown>, string]> = [
        ['ip.listed', 'ip.clean', { customerIpId: 'ip_1' }, 'ip-ip_1'],
        ['slo.burning', 'slo.recovered', { objectiveId: 'slo_1' }, 'slo-slo_1'],
        ['maintenance.started', 'maintenance.ended', { maintenanceWindowId: 'mw_1' }, 'maintenance-mw_1'],
      ];
      for (const [open, close, data, alias] of pairs) {
        expect(bodyOf(aMessage({ event: open, incidentId: null, data })).alias, open).to.equal(alias);
        expect(requestOf(aMessage({ event: close, incidentId: null, data })).url, close).to.equal(
          `https://api.opsgenie.com/v2/alerts/${alias}/close?identifierType=alias`,
        );
      }
    });

    it('gives a storm one alert: created while monitors are down, closed once it is over with none down', () => {
      const storm = { stormStartedAt: '2026-11-01T00:00:00.000Z', digestOf: 'incident.opened', count: 5, incidents: [] };
      const opened = bodyOf(aMessage({ event: 'incident.digest', incidentId: null, data: storm }));
      expect(opened).to.include({ alias: 'storm-1-2026-11-01T00:00:00.000Z', priority: 'P1' });
      const recovering = bodyOf(
        aMessage({ event: 'incident.digest', incidentId: null, data: { ...storm, digestOf: 'incident.resolved' } }),
      );
      expect(recovering).to.include({ alias: opened.alias, priority: 'P2' });
      const over = requestOf(aMessage({ event: 'incident.digest', incidentId: null, data: { ...storm, stage: 'over', down: 0 } }));
      // The alias is a path segment: escaped (a storm's has colons).
      expect(over.url).to.equal('https://api.opsgenie.com/v2/alerts/storm-1-2026-11-01T00%3A00%3A00.000Z/close?identifierType=alias');
    });

    it('sets the priority by event: a manual alert by its severity, a test P5, every event P1 to P5', () => {
      const manual = (severity: string) => bodyOf(aMessage({ event: 'alert.manual', incidentId: null, data: { severity } })).priority;
      expect(['critical', 'warning', 'info', 'other'].map(manual)).to.deep.equal(['P1', 'P3', 'P5', 'P3']);
      expect(bodyOf(aMessage({ event: 'test', incidentId: null })).priority).to.equal('P5');
      expect(bodyOf(aMessage({ event: 'domain.expiring', data: { band: 'error' } })).priority).to.equal('P2');
      expect(bodyOf(aMessage({ event: 'domain.expiring', data: { band: 'warning' } })).priority).to.equal('P3');
      for (const event of CHANNEL_EVENTS) {
        const body = bodyOf(aMessage({ event }));
        if (body.priority !== undefined) expect(body.priority, event).to.match(/^P[1-5]$/);
        else expect(body, event).to.have.keys('source', 'note');
      }
    });

    it('cuts the message to 130 characters and the description to 15000, saying so', () => {
      const long = bodyOf(aMessage({ summary: 'x'.repeat(20_000) }));
      expect(long.message).to.have.length(OPSGENIE_MESSAGE_MAX);
      expect(long.message.endsWith('…')).to.equal(true);
      expect(long.description).to.have.length(OPSGENIE_DESCRIPTION_MAX);
    });
  });
});
