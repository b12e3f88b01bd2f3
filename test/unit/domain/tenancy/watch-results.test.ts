import { expect } from 'chai';
import { aDnsblResult, aListing } from '../../../support/dnsbl-results';
import { checkResult, NO_TIMINGS } from '../../../../src/domain/checks/check-result';
import { applyDnsblResult, applyDomainExpiryResult, UNCHECKED_DNSBL, UNCHECKED_EXPIRY } from '../../../../src/domain/tenancy/watch-results';

const now = new Date('2026-11-22T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);

describe('a domain expiry check folded into the stored expiry', () => {
  it('fills the expiry object and moves lastChangedAt only on change', () => {
    const seen = (expiresAt: string) =>
      checkResult({
        kind: 'domainExpiry',
        findings: [],
        timings: NO_TIMINGS(1),
        checkedAt: now,
        evidence: { domain: { domain: 'example.com', expiresAt, registrar: 'R', daysRemaining: 1, source: 'rdap' } },
      });
    const first = applyDomainExpiryResult(UNCHECKED_EXPIRY, seen('2027-01-01T00:00:00.000Z'), now);
    expect(first).to.include({ domainRegistrar: 'R', isExpired: false, lastError: null });
    expect(first.lastChangedAt).to.equal(now);
    const later = inDays(1);
    const same = applyDomainExpiryResult(first, seen('2027-01-01T00:00:00.000Z'), later);
    expect(same.lastChangedAt).to.equal(now);
    expect(same.lastCheckedAt).to.equal(later);
    const renewed = applyDomainExpiryResult(same, seen('2028-01-01T00:00:00.000Z'), later);
    expect(renewed.lastChangedAt).to.equal(later);
    const failed = applyDomainExpiryResult(
      renewed,
      checkResult({
        kind: 'domainExpiry',
        findings: [{ status: 'down', code: 'domainLookupFailed', message: 'timeout' }],
        timings: NO_TIMINGS(1),
        checkedAt: later,
        evidence: {},
      }),
      later,
    );
    expect(failed.domainExpiresAt?.toISOString()).to.equal('2028-01-01T00:00:00.000Z');
    expect(failed.lastError).to.equal('timeout');
  });
});

describe('a DNSBL check folded into the stored dnsbl state', () => {
  const listing = aListing;
  const result = aDnsblResult;
  it('records listed and clean transitions', () => {
    const t1 = new Date('2026-01-01T00:00:00Z');
    const t2 = new Date('2026-01-02T00:00:00Z');
    const t3 = new Date('2026-01-03T00:00:00Z');
    const listed = applyDnsblResult(UNCHECKED_DNSBL, result([listing('a')]), t1);
    expect(listed).to.include({ isListed: true, listedCount: 1, lastListedAt: t1, lastChangedAt: t1 });
    const still = applyDnsblResult(listed, result([listing('a')]), t2);
    expect(still).to.include({ lastListedAt: t1, lastChangedAt: t1, lastCheckedAt: t2 });
    const clean = applyDnsblResult(still, result([]), t3);
    expect(clean).to.include({ isListed: false, listedCount: 0, lastCleanAt: t3, lastChangedAt: t3, lastListedAt: t1 });
  });
  it('keeps a listing whose zone failed this time, and records the error', () => {
    const listed = applyDnsblResult(UNCHECKED_DNSBL, result([listing('a')]), new Date());
    const flaky = applyDnsblResult(listed, result([], ['a']), new Date());
    expect(flaky.isListed).to.equal(true);
    expect(flaky.lastError).to.contain('a');
    const allFailed = applyDnsblResult(listed, result([], ['a', 'b']), new Date());
    expect(allFailed.listings).to.deep.equal(listed.listings);
  });
});
