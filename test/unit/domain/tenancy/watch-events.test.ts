import { expect } from 'chai';
import {
  decideDomainEvents,
  decideIpEvents,
  expiryBand,
  NO_DOMAIN_NOTICE,
  NO_IP_NOTICE,
  type DomainNotice,
  type IpNotice,
} from '../../../../src/domain/tenancy/watch-events';
import type { DnsblListing } from '../../../../src/domain/checks/check-result';
import { UNCHECKED_DNSBL, UNCHECKED_EXPIRY, type IpDnsbl } from '../../../../src/domain/tenancy/watch-results';

const DAY = 86_400_000;
const t0 = new Date('2026-12-01T00:00:00Z');
const at = (days: number) => new Date(t0.getTime() + days * DAY);
const domain = { publicId: 'd-1', domainName: 'shop.example', label: 'Shop', warningDays: 30, errorDays: 7 };
const expiring = (expiresAt: Date) => ({ ...UNCHECKED_EXPIRY, domainExpiresAt: expiresAt, lastCheckedAt: t0 });
const ok = { answered: true, suppressed: false };

/** Feeds one sweep per day against a fixed expiry date; answers the kinds and marks emitted. */
function sweepDomain(expiresAt: Date, days: number[], notice: DomainNotice = NO_DOMAIN_NOTICE, context = ok) {
  const emitted: string[] = [];
  let current = notice;
  for (const day of days) {
    const decision = decideDomainEvents(domain, current, expiring(expiresAt), { ...context, now: at(day) });
    emitted.push(...decision.events.map((e) => `${e.kind}:${e.mark}`));
    current = decision.notice;
  }
  return { emitted, notice: current };
}

const listing: DnsblListing = {
  name: 'Test BL',
  reason: 'spam',
  listKey: 'bl.test',
  delistUrl: 'https://bl.test',
  resultCode: '127.0.0.2',
};
const listedState: IpDnsbl = { ...UNCHECKED_DNSBL, isListed: true, listedCount: 1, listings: [listing] };
const cleanState: IpDnsbl = { ...UNCHECKED_DNSBL, isListed: false };
const ip = { publicId: 'i-1', ipAddress: '192.0.2.10', label: 'Mail', reminderDays: null as number | null };

function sweepIp(states: [number, IpDnsbl, boolean?][], reminderDays: number | null = null, notice: IpNotice = NO_IP_NOTICE) {
  const emitted: string[] = [];
  let current = notice;
  for (const [day, state, suppressed] of states) {
    const decision = decideIpEvents({ ...ip, reminderDays }, current, state, { now: at(day), suppressed: suppressed ?? false });
    emitted.push(...decision.events.map((e) => `${e.kind}${e.data.reminder ? ':reminder' : ''}`));
    current = decision.notice;
  }
  return { emitted, notice: current };
}

describe('Watch events (customer domains and IPs)', () => {
  describe('domain expiry bands', () => {
    it('reads the band from whole days left, as the checker counts them', () => {
      const limits = { warningDays: 30, errorDays: 7 };
      expect(expiryBand(null, limits, t0)).to.equal(null);
      expect(expiryBand(at(31), limits, t0)).to.equal('ok');
      expect(expiryBand(at(30), limits, t0)).to.equal('warning');
      expect(expiryBand(at(8), limits, t0)).to.equal('warning');
      expect(expiryBand(at(7), limits, t0)).to.equal('error');
      expect(expiryBand(new Date(t0.getTime() + 1), limits, t0)).to.equal('error');
      expect(expiryBand(t0, limits, t0)).to.equal('expired');
    });

    it('says nothing while the domain stays far from expiry', () => {
      expect(sweepDomain(at(100), [0, 1, 2, 3]).emitted).to.deep.equal([]);
    });

    it('announces entering the warning band once, however many sweeps follow', () => {
      const { emitted, notice } = sweepDomain(at(40), [0, 9, 10, 11, 12, 20]);
      expect(emitted).to.deep.equal(['domain.expiring:warning']);
      expect(notice.band).to.equal('warning');
    });

    it('announces each more urgent band once: warning, error, expired', () => {
      expect(sweepDomain(at(40), [0, 10, 11, 33, 34, 40, 41, 50]).emitted).to.deep.equal([
        'domain.expiring:warning',
        'domain.expiring:error',
        'domain.expired:expired',
      ]);
    });

    it('announces only the band reached when several were skipped (one event per transition)', () => {
      expect(sweepDomain(at(3), [0]).emitted).to.deep.equal(['domain.expiring:error']);
      expect(sweepDomain(at(-1), [0]).emitted).to.deep.equal(['domain.expired:expired']);
    });

    it('carries what receivers need in the event', () => {
      const [event] = decideDomainEvents(domain, NO_DOMAIN_NOTICE, expiring(at(5)), { ...ok, now: t0 }).events;
      expect(event).to.deep.include({ kind: 'domain.expiring', mark: 'error', occurredAt: t0, summary: 'shop.example expires in 5 days' });
      expect(event!.data).to.deep.include({
        customerDomainId: 'd-1',
        domainName: 'shop.example',
        band: 'error',
        daysLeft: 5,
        domainExpiresAt: at(5).toISOString(),
      });
    });

    it('moves back silently on renewal, and announces the next approach again', () => {
      const warned = sweepDomain(at(20), [0]);
      expect(warned.emitted).to.deep.equal(['domain.expiring:warning']);
      const renewed = sweepDomain(at(400), [1], warned.notice);
      expect(renewed.emitted).to.deep.equal([]);
      expect(renewed.notice.band).to.equal('ok');
      expect(sweepDomain(at(400), [380], renewed.notice).emitted).to.deep.equal(['domain.expiring:warning']);
    });

    it('ignores a lookup that did not answer', () => {
      expect(sweepDomain(at(5), [0], NO_DOMAIN_NOTICE, { answered: false, suppressed: false })).to.deep.equal({
        emitted: [],
        notice: NO_DOMAIN_NOTICE,
      });
    });

    it('stays silent during maintenance and announces a change still true when the window ends', () => {
      const during = sweepDomain(at(20), [0, 1], NO_DOMAIN_NOTICE, { answered: true, suppressed: true });
      expect(during).to.deep.equal({ emitted: [], notice: NO_DOMAIN_NOTICE });
      expect(sweepDomain(at(20), [2], during.notice).emitted).to.deep.equal(['domain.expiring:warning']);
    });
  });

  describe('IP blocklisting', () => {
    it('says nothing about an IP that was never listed', () => {
      const { emitted, notice } = sweepIp([
        [0, cleanState],
        [1, cleanState],
      ]);
      expect(emitted).to.deep.equal([]);
      expect(notice.listed).to.equal(false);
    });

    it('announces listed once and clean once, one event per transition', () => {
      expect(
        sweepIp([
          [0, cleanState],
          [1, listedState],
          [2, listedState],
          [3, cleanState],
          [4, cleanState],
        ]).emitted,
      ).to.deep.equal(['ip.listed', 'ip.clean']);
    });

    it('carries the listings in the event', () => {
      const [event] = decideIpEvents(ip, NO_IP_NOTICE, listedState, { now: t0, suppressed: false }).events;
      expect(event).to.deep.include({ kind: 'ip.listed', mark: 'listed', summary: '192.0.2.10 is listed on 1 blocklist: Test BL' });
      expect(event!.data).to.deep.include({ customerIpId: 'i-1', ipAddress: '192.0.2.10', isListed: true, reminder: false });
      expect(event!.data.listings).to.deep.equal([
        { name: 'Test BL', listKey: 'bl.test', reason: 'spam', delistUrl: 'https://bl.test', resultCode: '127.0.0.2' },
      ]);
    });

    it('reminds every dnsblReminderInterval days while listed', () => {
      expect(
        sweepIp(
          [
            [0, listedState],
            [1, listedState],
            [2, listedState],
            [3, listedState],
            [4, listedState],
          ],
          2,
        ).emitted,
      ).to.deep.equal(['ip.listed', 'ip.listed:reminder', 'ip.listed:reminder']);
    });

    it('notifies once when dnsblReminderInterval is unset', () => {
      expect(
        sweepIp(
          [
            [0, listedState],
            [10, listedState],
            [100, listedState],
          ],
          null,
        ).emitted,
      ).to.deep.equal(['ip.listed']);
    });

    it("stays silent in maintenance: a listing found there is announced after; a known listing's reminder clock runs on", () => {
      expect(
        sweepIp([
          [0, listedState, true],
          [1, listedState, true],
          [2, listedState],
        ]).emitted,
      ).to.deep.equal(['ip.listed']);
      // Announced at day 0; days 1-2 in a window move the reminder clock, so day 3 is not yet due with a 2-day interval.
      expect(
        sweepIp(
          [
            [0, listedState],
            [1, listedState, true],
            [2, listedState, true],
            [3, listedState],
            [4, listedState],
          ],
          2,
        ).emitted,
      ).to.deep.equal(['ip.listed', 'ip.listed:reminder']);
    });
  });
});
