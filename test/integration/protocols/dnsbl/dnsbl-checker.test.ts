import { expect } from 'chai';
import { DnsDnsblChecker } from '../../../../src/infrastructure/protocols/dnsbl/dns-dnsbl-checker';
import { ResolverFactory } from '../../../../src/infrastructure/protocols/dns/resolver-factory';
import { applyDnsblResult, UNCHECKED_DNSBL } from '../../../../src/domain/tenancy/watch-results';
import { DnsPeer } from '../../../support/peers/dns-peer';
import { checkContext } from '../../../support/check-requests';

describe('DNSBL checker against a blocklist zone on a loopback DNS server', () => {
  const zones = [
    { zone: 'bl.test', name: 'Test BL', delistUrl: 'https://bl.test/delist' },
    { zone: 'other.test', name: 'Other BL', delistUrl: 'https://other.test/remove' },
  ];
  const peer = new DnsPeer({
    '4.3.2.1.bl.test': { A: ['127.0.0.2'], TXT: ['Listed for spam, see https://bl.test'] },
    [`${'1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2'}.other.test`]: { A: ['127.0.0.4'] },
  });
  let checker: DnsDnsblChecker;
  before(async () => {
    await peer.start();
    checker = new DnsDnsblChecker(zones, new ResolverFactory([peer.address]));
  });
  after(() => peer.stop());
  afterEach(() => {
    peer.failing = false;
  });

  it('lists an IPv4 address with name, reason from TXT, listKey, delistUrl and resultCode', async () => {
    const result = await checker.check({ kind: 'dnsbl', ip: '1.2.3.4', timeoutSeconds: 2 }, checkContext());
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('dnsblListed');
    expect(result.evidence.dnsbl?.listings).to.deep.equal([
      {
        name: 'Test BL',
        reason: 'Listed for spam, see https://bl.test',
        listKey: 'bl.test',
        delistUrl: 'https://bl.test/delist',
        resultCode: '127.0.0.2',
      },
    ]);
  });

  it('queries IPv6 addresses by reversed nibbles', async () => {
    const result = await checker.check({ kind: 'dnsbl', ip: '2001:db8::1', timeoutSeconds: 2 }, checkContext());
    expect(result.evidence.dnsbl?.listings.map((l) => l.listKey)).to.deep.equal(['other.test']);
    expect(result.evidence.dnsbl?.listings[0]?.reason).to.equal('Listed (127.0.0.4)');
  });

  it('is up for a clean address, and records the listed/clean transition', async () => {
    const t1 = new Date('2026-11-01T00:00:00Z');
    const t2 = new Date('2026-11-02T00:00:00Z');
    const listed = await checker.check({ kind: 'dnsbl', ip: '1.2.3.4', timeoutSeconds: 2 }, checkContext());
    const clean = await checker.check({ kind: 'dnsbl', ip: '5.6.7.8', timeoutSeconds: 2 }, checkContext());
    expect(clean.status).to.equal('up');
    const afterListed = applyDnsblResult(UNCHECKED_DNSBL, listed, t1);
    const afterClean = applyDnsblResult(afterListed, clean, t2);
    expect(afterListed).to.include({ isListed: true, listedCount: 1 });
    expect(afterListed.lastListedAt).to.equal(t1);
    expect(afterClean).to.include({ isListed: false, listedCount: 0 });
    expect(afterClean.lastCleanAt).to.equal(t2);
    expect(afterClean.lastChangedAt).to.equal(t2);
  });

  it('is down with dnsblLookupFailed when no zone answers', async () => {
    peer.failing = true;
    const result = await checker.check({ kind: 'dnsbl', ip: '1.2.3.4', timeoutSeconds: 2 }, checkContext());
    expect(result.reason?.code).to.equal('dnsblLookupFailed');
    expect(result.evidence.dnsbl?.failedZones).to.deep.equal(['bl.test', 'other.test']);
  });
});
