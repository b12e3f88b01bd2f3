import { expect } from 'chai';
import { ResolvingTargetPolicy } from '../../../src/infrastructure/network/resolving-target-policy';
import { FakeHostResolver } from '../../support/fakes/network-fakes';

describe('ResolvingTargetPolicy: verdicts on IP literals are kept, names are resolved every time', () => {
  it('judges an IP literal once and answers the same verdict after, allowed or refused', async () => {
    const policy = new ResolvingTargetPolicy(new FakeHostResolver([]), ['10.1.0.0/16']);
    const allowed = await policy.vet('10.1.2.3');
    expect(allowed).to.deep.equal({ ok: true, hostname: '10.1.2.3', addresses: ['10.1.2.3'] });
    expect(await policy.vet('10.1.2.3'), 'the kept verdict').to.equal(allowed);
    expect(await policy.vet('10.2.0.1')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    expect(await policy.vet('10.2.0.1')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    expect(await policy.vet('0x7f.1'), 'another spelling of loopback').to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    expect(Object.isFrozen(allowed) && allowed.ok && Object.isFrozen(allowed.addresses), 'shared verdicts cannot be changed').to.equal(
      true,
    );
  });

  it('keeps a verdict per policy: another allowlist judges the same literal anew', async () => {
    expect((await new ResolvingTargetPolicy(new FakeHostResolver([]), []).vet('10.1.2.3')).ok).to.equal(false);
    expect((await new ResolvingTargetPolicy(new FakeHostResolver([]), ['10.0.0.0/8']).vet('10.1.2.3')).ok).to.equal(true);
  });

  it('resolves a name on every vetting (its addresses may change) and refuses it once it points inside', async () => {
    const resolver = new FakeHostResolver(['93.184.216.34']);
    const policy = new ResolvingTargetPolicy(resolver, []);
    expect(await policy.vet('example.com')).to.deep.equal({ ok: true, hostname: 'example.com', addresses: ['93.184.216.34'] });
    await policy.vet('example.com');
    expect(resolver.asked).to.equal(2);
    const rebound = new ResolvingTargetPolicy(new FakeHostResolver(['127.0.0.1']), []);
    expect(await rebound.vet('example.com')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
  });

  it("a probe's policy resolves names of its private network, and its owner's allowlist alone decides their addresses", async () => {
    const service = new ResolvingTargetPolicy(new FakeHostResolver(['10.1.2.3']), ['10.1.0.0/16']);
    expect(await service.vet('db.internal')).to.deep.equal({ ok: false, reason: 'reservedName' });
    const probe = new ResolvingTargetPolicy(new FakeHostResolver(['10.1.2.3']), ['10.1.0.0/16'], { privateNames: true });
    expect(await probe.vet('db.internal')).to.deep.equal({ ok: true, hostname: 'db.internal', addresses: ['10.1.2.3'] });
    const notAllowed = new ResolvingTargetPolicy(new FakeHostResolver(['10.9.9.9']), ['10.1.0.0/16'], { privateNames: true });
    expect(await notAllowed.vet('intranet')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    const loopback = new ResolvingTargetPolicy(new FakeHostResolver(['127.0.0.1']), [], { privateNames: true });
    expect(await loopback.vet('localhost')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
  });
});
