import { expect } from 'chai';
import {
  channelEventOf,
  OUTBOX_EVENT_KINDS,
  type ChannelEventTable,
  parseRetryAfter,
  retryDelayMs,
  verdictOf,
  type RetryPolicy,
} from '../../../../src/domain/notifications/delivery-schedule';

const policy: RetryPolicy = { baseMs: 1_000, maxMs: 60_000, maxAttempts: 8 };
const NOW = new Date('2026-11-23T12:00:00Z');

describe('delivery schedule', () => {
  describe('retryDelayMs (exponential back-off, full jitter over the upper half)', () => {
    it('doubles the ceiling per attempt: random 1 reaches it, random 0 half of it', () => {
      expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, policy, 1, null))).to.deep.equal([1_000, 2_000, 4_000, 8_000]);
      expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, policy, 0, null))).to.deep.equal([500, 1_000, 2_000, 4_000]);
    });

    it('spreads retries of receivers that failed together', () => {
      const delays = new Set([0, 0.25, 0.5, 0.75].map((random) => retryDelayMs(3, policy, random, null)));
      expect(delays.size).to.equal(4);
    });

    it('caps the wait at maxMs', () => {
      expect(retryDelayMs(30, policy, 1, null)).to.equal(60_000);
    });

    it('waits at least the Retry-After the receiver asked for, still capped', () => {
      expect(retryDelayMs(1, policy, 0, 20_000)).to.equal(20_000);
      expect(retryDelayMs(4, policy, 1, 10)).to.equal(8_000);
      expect(retryDelayMs(1, policy, 0, 3_600_000)).to.equal(60_000);
    });
  });

  describe('parseRetryAfter', () => {
    it('reads delta-seconds and HTTP dates, relative to now', () => {
      expect(parseRetryAfter('120', NOW)).to.equal(120_000);
      expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:30 GMT', NOW)).to.equal(30_000);
      expect(parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', NOW)).to.equal(0);
    });

    it('ignores an absent or unreadable header', () => {
      expect(parseRetryAfter(undefined, NOW)).to.equal(null);
      expect(parseRetryAfter('soon', NOW)).to.equal(null);
    });
  });

  describe('verdictOf', () => {
    it('delivered on 2xx; retry on no answer, 408, 429 and 5xx; refused on any other 4xx (and 3xx)', () => {
      expect([200, 202, 204].map(verdictOf)).to.deep.equal(['delivered', 'delivered', 'delivered']);
      expect([null, 408, 429, 500, 503].map(verdictOf)).to.deep.equal(['retry', 'retry', 'retry', 'retry', 'retry']);
      expect([301, 400, 401, 404, 410].map(verdictOf)).to.deep.equal(['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    });
  });

  it('maps the outbox kinds to channel events, and nothing else', () => {
    expect(channelEventOf('incidentOpened')).to.equal('incident.opened');
    expect(channelEventOf('incidentAcknowledged')).to.equal('incident.acknowledged');
    expect(channelEventOf('incidentResolved')).to.equal('incident.resolved');
    expect(channelEventOf('reminderDue')).to.equal('incident.reminder');
    expect(channelEventOf('sslExpiryReminder')).to.equal('certificate.expiring');
    expect(channelEventOf('dnsblReminder')).to.equal('ip.listed');
    expect(channelEventOf('sslExpired')).to.equal('certificate.expired');
    expect(channelEventOf('domain.expiring')).to.equal('domain.expiring');
    expect(channelEventOf('domain.expired')).to.equal('domain.expired');
    expect(channelEventOf('ip.listed')).to.equal('ip.listed');
    expect(channelEventOf('ip.clean')).to.equal('ip.clean');
    expect(channelEventOf('maintenance.started')).to.equal('maintenance.started');
    expect(channelEventOf('maintenance.ended')).to.equal('maintenance.ended');
    expect(channelEventOf('maintenance.scheduled'), 'announced to status pages only, for now').to.equal(null);
    expect(channelEventOf('email')).to.equal(null);
    expect(channelEventOf('identity.securityNotice'), 'sent to the administrators it names, not to channels').to.equal(null);
    expect(channelEventOf('toString'), 'no inherited key is a kind').to.equal(null);
  });

  it("is total over the publishers' kinds: a table missing one, or naming no publisher's kind, fails the typecheck", () => {
    const table: ChannelEventTable = {
      incidentOpened: 'incident.opened',
      incidentAcknowledged: 'incident.acknowledged',
      incidentResolved: 'incident.resolved',
      reminderDue: 'incident.reminder',
      sslExpiryReminder: 'certificate.expiring',
      sslExpired: 'certificate.expired',
      dnsblReminder: 'ip.listed',
      'maintenance.scheduled': null,
      'maintenance.started': 'maintenance.started',
      'maintenance.ended': 'maintenance.ended',
      'domain.expiring': 'domain.expiring',
      'domain.expired': 'domain.expired',
      'ip.listed': 'ip.listed',
      'ip.clean': 'ip.clean',
      'slo.burning': 'slo.burning',
      'slo.recovered': 'slo.recovered',
      'identity.securityNotice': null,
    };
    const { 'identity.securityNotice': _notice, ...withoutOne } = table;
    // @ts-expect-error a kind without its entry
    const missing: ChannelEventTable = withoutOne;
    // @ts-expect-error an entry for a kind no publisher defines
    const extra: ChannelEventTable = { ...table, 'incident.exploded': null };
    expect(Object.keys(missing)).to.have.length(Object.keys(table).length - 1);
    expect(extra).to.include(table);
    expect(Object.keys(table).map(channelEventOf)).to.deep.equal(Object.values(table));
  });

  it('routes from the outbox exactly the kinds channels receive', () => {
    expect([...OUTBOX_EVENT_KINDS].sort()).to.deep.equal(
      [
        'incidentOpened',
        'incidentAcknowledged',
        'incidentResolved',
        'reminderDue',
        'sslExpiryReminder',
        'sslExpired',
        'dnsblReminder',
        'maintenance.started',
        'maintenance.ended',
        'domain.expiring',
        'domain.expired',
        'ip.listed',
        'ip.clean',
        'slo.burning',
        'slo.recovered',
      ].sort(),
    );
  });
});
