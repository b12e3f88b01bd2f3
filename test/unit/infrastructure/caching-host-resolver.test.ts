import { expect } from 'chai';
import { CachingHostResolver } from '../../../src/infrastructure/network/caching-host-resolver';
import { ResolvingTargetPolicy } from '../../../src/infrastructure/network/resolving-target-policy';
import { FakeTtlResolver } from '../../support/fakes/network-fakes';

/** A cache over `dns` on a clock the test moves. */
function cacheOver(dns: FakeTtlResolver, settings: { maxEntries?: number; negativeTtlMs?: number; maxTtlMs?: number } = {}) {
  const clock = { ms: 1_000 };
  const cache = new CachingHostResolver(dns, { maxEntries: 100, ...settings }, () => clock.ms);
  return { cache, clock };
}

describe('CachingHostResolver: DNS answers kept for their TTL', () => {
  it('answers a name from memory until its TTL has passed, then asks again', async () => {
    const dns = new FakeTtlResolver().set('hooks.example.com', ['93.184.216.34'], 30);
    const { cache, clock } = cacheOver(dns);
    expect(await cache.resolveAddresses('hooks.example.com')).to.deep.equal(['93.184.216.34']);
    clock.ms += 29_999;
    expect(await cache.resolveAddresses('HOOKS.example.com'), 'names are case-insensitive').to.deep.equal(['93.184.216.34']);
    expect(dns.timesAsked('hooks.example.com')).to.equal(1);
    dns.set('hooks.example.com', ['93.184.216.35'], 30);
    clock.ms += 1;
    expect(await cache.resolveAddresses('hooks.example.com'), 'the TTL passed: the new answer').to.deep.equal(['93.184.216.35']);
    expect(dns.timesAsked('hooks.example.com')).to.equal(2);
  });

  it('keeps nothing with a TTL of 0, and nothing longer than its cap whatever the TTL', async () => {
    const dns = new FakeTtlResolver().set('zero.example.com', ['93.184.216.34'], 0).set('long.example.com', ['93.184.216.34'], 86_400);
    const { cache, clock } = cacheOver(dns, { maxTtlMs: 60_000 });
    await cache.resolveAddresses('zero.example.com');
    await cache.resolveAddresses('zero.example.com');
    expect(dns.timesAsked('zero.example.com')).to.equal(2);
    await cache.resolveAddresses('long.example.com');
    clock.ms += 60_000;
    await cache.resolveAddresses('long.example.com');
    expect(dns.timesAsked('long.example.com'), 'asked again after the cap, not after a day').to.equal(2);
  });

  it('keeps a name without addresses only a short time, so a receiver created since is found soon', async () => {
    const dns = new FakeTtlResolver();
    const { cache, clock } = cacheOver(dns, { negativeTtlMs: 5_000 });
    expect(await cache.resolveAddresses('new.example.com')).to.deep.equal([]);
    clock.ms += 4_999;
    expect(await cache.resolveAddresses('new.example.com')).to.deep.equal([]);
    expect(dns.timesAsked('new.example.com')).to.equal(1);
    dns.set('new.example.com', ['93.184.216.34'], 300);
    clock.ms += 1;
    expect(await cache.resolveAddresses('new.example.com')).to.deep.equal(['93.184.216.34']);
  });

  it('keeps a failed question (no negative answer, TTL 0) not at all', async () => {
    const dns = new FakeTtlResolver();
    dns.answers.set('flaky.example.com', { addresses: [], ttlSeconds: 0, negative: false });
    const { cache } = cacheOver(dns);
    await cache.resolveAddresses('flaky.example.com');
    await cache.resolveAddresses('flaky.example.com');
    expect(dns.timesAsked('flaky.example.com')).to.equal(2);
  });

  it('keeps at most maxEntries names, forgetting the least recently used first', async () => {
    const dns = new FakeTtlResolver()
      .set('a.example.com', ['93.184.216.1'])
      .set('b.example.com', ['93.184.216.2'])
      .set('c.example.com', ['93.184.216.3']);
    const { cache } = cacheOver(dns, { maxEntries: 2 });
    await cache.resolveAddresses('a.example.com');
    await cache.resolveAddresses('b.example.com');
    await cache.resolveAddresses('a.example.com'); // a used last: b is the least recently used
    await cache.resolveAddresses('c.example.com');
    expect(cache.size).to.equal(2);
    await cache.resolveAddresses('a.example.com');
    expect(dns.timesAsked('a.example.com'), 'a kept').to.equal(1);
    await cache.resolveAddresses('b.example.com');
    expect(dns.timesAsked('b.example.com'), 'b forgotten').to.equal(2);
    const none = cacheOver(dns, { maxEntries: 0 }).cache;
    await none.resolveAddresses('c.example.com');
    await none.resolveAddresses('c.example.com');
    expect(none.size, 'maxEntries 0 keeps nothing').to.equal(0);
  });

  it('asks once for a name many deliveries want at the same moment', async () => {
    const dns = new FakeTtlResolver().set('storm.example.com', ['93.184.216.34']);
    const { cache } = cacheOver(dns);
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.resolveAddresses('storm.example.com')));
    expect(answers.every((a) => a[0] === '93.184.216.34')).to.equal(true);
    expect(dns.timesAsked('storm.example.com')).to.equal(1);
  });

  it('keeps a cache per resolver: another resolver (other servers) never answers from it', async () => {
    const first = new FakeTtlResolver().set('hooks.example.com', ['93.184.216.34']);
    const second = new FakeTtlResolver().set('hooks.example.com', ['10.0.0.5']);
    const a = cacheOver(first).cache;
    const b = cacheOver(second).cache;
    expect(await a.resolveAddresses('hooks.example.com')).to.deep.equal(['93.184.216.34']);
    expect(await b.resolveAddresses('hooks.example.com')).to.deep.equal(['10.0.0.5']);
    expect([first.timesAsked('hooks.example.com'), second.timesAsked('hooks.example.com')]).to.deep.equal([1, 1]);
  });

  it('hands out copies: a caller changing its answer changes nothing kept', async () => {
    const dns = new FakeTtlResolver().set('hooks.example.com', ['93.184.216.34']);
    const { cache } = cacheOver(dns);
    (await cache.resolveAddresses('hooks.example.com')).push('10.0.0.1');
    expect(await cache.resolveAddresses('hooks.example.com')).to.deep.equal(['93.184.216.34']);
  });
});

describe('ResolvingTargetPolicy over a cache: answers kept, verdicts judged every time', () => {
  it('judges cached addresses on every vetting, and refuses a name once its new answer is private', async () => {
    const dns = new FakeTtlResolver().set('hooks.example.com', ['93.184.216.34'], 10);
    const { cache, clock } = cacheOver(dns);
    const policy = new ResolvingTargetPolicy(cache, []);
    expect(await policy.vet('hooks.example.com')).to.deep.equal({ ok: true, hostname: 'hooks.example.com', addresses: ['93.184.216.34'] });
    dns.set('hooks.example.com', ['10.0.0.5'], 10);
    clock.ms += 10_000;
    expect(await policy.vet('hooks.example.com')).to.deep.equal({ ok: false, reason: 'nonPublicAddress' });
    const allowing = new ResolvingTargetPolicy(cache, ['10.0.0.0/8']);
    expect(await allowing.vet('hooks.example.com'), 'the same cached answer, the allowlist of the policy judging it').to.deep.equal({
      ok: true,
      hostname: 'hooks.example.com',
      addresses: ['10.0.0.5'],
    });
    expect(dns.timesAsked('hooks.example.com')).to.equal(2);
  });
});
