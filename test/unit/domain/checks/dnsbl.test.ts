import { expect } from 'chai';
import { applyDnsblResult, classifyDnsblAnswer, EMPTY_DNSBL, evaluateDnsbl, reversedIpLabel } from '../../../../src/domain/checks/dnsbl';
import { checkResult, NO_TIMINGS, type DnsblListing } from '../../../../src/domain/checks/check-result';

const listing = (listKey: string): DnsblListing => ({
  name: listKey,
  reason: 'spam',
  listKey,
  delistUrl: 'https://x',
  resultCode: '127.0.0.2',
});
const result = (listings: DnsblListing[], failedZones: string[] = [], checkedZones = 2) =>
  checkResult({
    kind: 'dnsbl',
    timings: NO_TIMINGS(1),
    checkedAt: new Date(),
    findings: evaluateDnsbl(listings, failedZones, checkedZones),
    evidence: { dnsbl: { ip: '1.2.3.4', listings, checkedZones, failedZones } },
  });

describe('DNSBL rules', () => {
  it('reverses IPv4 octets and IPv6 nibbles', () => {
    expect(reversedIpLabel('1.2.3.4')).to.equal('4.3.2.1');
    expect(reversedIpLabel('2001:db8::1')).to.equal('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2');
    expect(reversedIpLabel('256.1.1.1')).to.equal(null);
    expect(reversedIpLabel('01.1.1.1')).to.equal(null);
    expect(reversedIpLabel('1::2::3')).to.equal(null);
    expect(reversedIpLabel('example.com')).to.equal(null);
  });
  it('treats 127.0.0.x as listed and refusal codes as errors', () => {
    expect(classifyDnsblAnswer('127.0.0.2')).to.equal('listed');
    expect(classifyDnsblAnswer('127.255.255.254')).to.equal('error');
    expect(classifyDnsblAnswer('10.0.0.1')).to.equal('error');
  });
  it('is down when listed, and when every zone failed', () => {
    expect(result([listing('a')]).reason?.code).to.equal('dnsblListed');
    expect(result([], ['a', 'b']).reason?.code).to.equal('dnsblLookupFailed');
    expect(result([], ['a']).status).to.equal('up');
  });
  it('records listed and clean transitions', () => {
    const t1 = new Date('2026-01-01T00:00:00Z');
    const t2 = new Date('2026-01-02T00:00:00Z');
    const t3 = new Date('2026-01-03T00:00:00Z');
    const listed = applyDnsblResult(EMPTY_DNSBL, result([listing('a')]), t1);
    expect(listed).to.include({ isListed: true, listedCount: 1, lastListedAt: t1, lastChangedAt: t1 });
    const still = applyDnsblResult(listed, result([listing('a')]), t2);
    expect(still).to.include({ lastListedAt: t1, lastChangedAt: t1, lastCheckedAt: t2 });
    const clean = applyDnsblResult(still, result([]), t3);
    expect(clean).to.include({ isListed: false, listedCount: 0, lastCleanAt: t3, lastChangedAt: t3, lastListedAt: t1 });
  });
  it('keeps a listing whose zone failed this time, and records the error', () => {
    const listed = applyDnsblResult(EMPTY_DNSBL, result([listing('a')]), new Date());
    const flaky = applyDnsblResult(listed, result([], ['a']), new Date());
    expect(flaky.isListed).to.equal(true);
    expect(flaky.lastError).to.contain('a');
    const allFailed = applyDnsblResult(listed, result([], ['a', 'b']), new Date());
    expect(allFailed.listings).to.deep.equal(listed.listings);
  });
});
