import { expect } from 'chai';
import { NodeDnsResolver } from '../../../../src/infrastructure/network/node-dns-resolver';
import { ResolvingTargetPolicy } from '../../../../src/infrastructure/network/resolving-target-policy';
import { startTestDns, type TestDns } from '../../../support/test-dns';

describe('ResolvingTargetPolicy against a DNS server on loopback', () => {
  let dns: TestDns;
  let policy: ResolvingTargetPolicy;

  before(async () => {
    dns = await startTestDns();
    policy = new ResolvingTargetPolicy(new NodeDnsResolver([dns.server], { timeoutMs: 500, tries: 1 }), []);
  });
  after(() => dns.close());

  it('answers the public addresses of a public name, A and AAAA', async () => {
    expect(await policy.vet('public.monitor-fixture.com')).to.deep.equal({
      ok: true,
      hostname: 'public.monitor-fixture.com',
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
    });
    expect(await policy.vet('WWW.Monitor-Fixture.com.')).to.deep.include({ ok: true, hostname: 'www.monitor-fixture.com' });
  });

  it('refuses names resolving to private addresses, even one among public ones, or through a CNAME', async () => {
    for (const name of [
      'rebind.monitor-fixture.com',
      'mixed.monitor-fixture.com',
      'v6private.monitor-fixture.com',
      'alias.monitor-fixture.com',
    ]) {
      expect(await policy.vet(name), name).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    }
    expect(await policy.vet('public-alias.monitor-fixture.com')).to.deep.include({ ok: true });
  });

  it('answers unresolvable for unknown names and names without addresses', async () => {
    expect(await policy.vet('missing.monitor-fixture.com')).to.deep.equal({ ok: false, reason: 'unresolvable' });
    expect(await policy.vet('txt-only.monitor-fixture.com')).to.deep.equal({ ok: false, reason: 'unresolvable' });
  });

  it('refuses reserved names and hostile literals without resolving them', async () => {
    expect(await policy.vet('localhost')).to.deep.equal({ ok: false, reason: 'reservedName' });
    expect(await policy.vet('0x7f.1')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    expect(await policy.vet('[::ffff:10.0.0.1]')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    expect(await policy.vet('exa mple.com')).to.deep.equal({ ok: false, reason: 'malformed' });
    expect(await policy.vet('8.8.8.8')).to.deep.equal({ ok: true, hostname: '8.8.8.8', addresses: ['8.8.8.8'] });
  });

  it('lets the operator allowlist private ranges (CHECK_PRIVATE_ALLOWLIST)', async () => {
    const allowing = new ResolvingTargetPolicy(new NodeDnsResolver([dns.server], { timeoutMs: 500, tries: 1 }), ['10.0.0.0/24']);
    expect(await allowing.vet('rebind.monitor-fixture.com')).to.deep.equal({
      ok: true,
      hostname: 'rebind.monitor-fixture.com',
      addresses: ['10.0.0.5'],
    });
    expect(await allowing.vet('10.0.0.9')).to.deep.include({ ok: true });
    expect(await allowing.vet('10.0.1.9')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    expect(allowing.isAllowedAddress('::ffff:10.0.0.7')).to.equal(true);
    expect(allowing.isAllowedAddress('127.0.0.1')).to.equal(false);
    expect(allowing.isAllowedAddress('not an address')).to.equal(false);
  });

  it('treats a resolver that does not answer as unresolvable, within its timeout', async () => {
    const silent = new ResolvingTargetPolicy(new NodeDnsResolver(['127.0.0.1:9'], { timeoutMs: 200, tries: 1 }), []);
    const started = Date.now();
    expect(await silent.vet('www.monitor-fixture.com')).to.deep.equal({ ok: false, reason: 'unresolvable' });
    expect(Date.now() - started).to.be.below(3000);
  });
});
