import { expect } from 'chai';
import { NodeDnsResolver } from '../../../../src/infrastructure/network/node-dns-resolver';
import { startTestDns, type TestDns } from '../../../support/test-dns';

describe('NodeDnsResolver answers with their TTL (what the notification DNS cache keeps)', () => {
  let dns: TestDns;

  before(async () => {
    dns = await startTestDns();
  });
  after(() => dns.close());

  it('answers A and AAAA with the least TTL of their records', async () => {
    const resolver = new NodeDnsResolver([dns.server], { timeoutMs: 500, tries: 1 });
    expect(await resolver.resolveWithTtl('public.monitor-fixture.com')).to.deep.equal({
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
      ttlSeconds: 60,
      negative: false,
    });
  });

  it('answers a negative for an unknown name or one without addresses', async () => {
    const resolver = new NodeDnsResolver([dns.server], { timeoutMs: 500, tries: 1 });
    expect(await resolver.resolveWithTtl('missing.monitor-fixture.com')).to.deep.equal({ addresses: [], ttlSeconds: 0, negative: true });
    expect(await resolver.resolveWithTtl('txt-only.monitor-fixture.com')).to.deep.equal({ addresses: [], ttlSeconds: 0, negative: true });
  });

  it('answers nothing to keep when the server does not answer', async () => {
    const resolver = new NodeDnsResolver(['127.0.0.1:9'], { timeoutMs: 100, tries: 1 });
    expect(await resolver.resolveWithTtl('public.monitor-fixture.com')).to.deep.equal({ addresses: [], ttlSeconds: 0, negative: false });
  });
});
