import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { errors, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from 'jose';
import { JwksCache } from '../../../../src/infrastructure/identity/jwks-cache';
import type { TargetPolicy } from '../../../../src/application/shared/target-policy';

const URI = 'https://idp.example/jwks';
const TTL = 300_000;
const INTERVAL = 30_000;
const aPolicy = () => ({}) as TargetPolicy;

async function aKey(): Promise<JWK> {
  const { publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(publicKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/** A provider's key set endpoint: what it publishes now, and how often it was read. */
class Provider {
  reads = 0;
  failing = false;
  constructor(public keys: JWK[]) {}
  readonly read = async (): Promise<JSONWebKeySet> => {
    this.reads++;
    if (this.failing) throw new Error('unreachable');
    return { keys: this.keys };
  };
}

describe('JwksCache', () => {
  let now: number;
  let cache: JwksCache;
  let first: JWK;
  let provider: Provider;
  const policy = aPolicy();

  beforeEach(async () => {
    now = 0;
    cache = new JwksCache(TTL, INTERVAL, () => now);
    first = await aKey();
    provider = new Provider([first]);
  });

  /** The key the cache answers for a token naming `kid`. */
  const lookup = (kid: string | undefined, keyPolicy = policy, uri = URI) =>
    cache.keys(keyPolicy, uri, provider.read)({ alg: 'RS256', kid }, { payload: '', signature: '' });

  const refusedAsUnknown = async (kid: string) => {
    const error = await lookup(kid).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(errors.JWKSNoMatchingKey);
  };

  it('keeps the keys for their lifetime, then reads them again', async () => {
    await lookup(first.kid);
    now = TTL - 1;
    await lookup(first.kid);
    expect(provider.reads).to.equal(1);
    now = TTL;
    await lookup(first.kid);
    expect(provider.reads).to.equal(2);
  });

  it('reads the keys again at once for a kid it does not hold, even just after a routine read (a rotation)', async () => {
    await lookup(first.kid);
    const rotated = await aKey();
    provider.keys = [rotated];
    now = 1;
    const key = await lookup(rotated.kid);
    expect(key).to.have.property('type', 'public');
    expect(provider.reads).to.equal(2);
    // The new set is the cached one now, for its full lifetime.
    now = 1 + TTL - 1;
    await lookup(rotated.kid);
    expect(provider.reads).to.equal(2);
  });

  it('reads again for unknown kids at most once per interval; after it, once more', async () => {
    await lookup(first.kid);
    await refusedAsUnknown('forged-1');
    expect(provider.reads).to.equal(2);
    now = INTERVAL - 1;
    await refusedAsUnknown('forged-2');
    await refusedAsUnknown('forged-3');
    expect(provider.reads).to.equal(2);
    // The known key still verifies meanwhile, without a read.
    await lookup(first.kid);
    expect(provider.reads).to.equal(2);
    now = INTERVAL;
    const rotated = await aKey();
    provider.keys = [first, rotated];
    await lookup(rotated.kid);
    expect(provider.reads).to.equal(3);
  });

  it('shares one read among concurrent verifications, and a newer set read meanwhile', async () => {
    await Promise.all([lookup(first.kid), lookup(first.kid), lookup(first.kid)]);
    expect(provider.reads).to.equal(1);
    const rotated = await aKey();
    provider.keys = [rotated];
    await Promise.all([lookup(rotated.kid), lookup(rotated.kid), lookup(rotated.kid)]);
    expect(provider.reads).to.equal(2);
  });

  it('keeps no failed read: the error is the caller’s, the next verification reads again', async () => {
    provider.failing = true;
    const error = await lookup(first.kid).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.have.property('message', 'unreachable');
    provider.failing = false;
    await lookup(first.kid);
    expect(provider.reads).to.equal(2);
  });

  it('refuses a malformed key set and keeps nothing of it', async () => {
    const malformed = cache.keys(policy, URI, async () => ({ keys: 'none' }) as unknown as JSONWebKeySet);
    const error = await malformed({ alg: 'RS256' }, { payload: '', signature: '' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(errors.JWKSInvalid);
    await lookup(first.kid);
    expect(provider.reads).to.equal(1);
  });

  it('never answers keys read under one target policy to another, nor for another URI', async () => {
    await lookup(first.kid);
    await lookup(first.kid, aPolicy());
    await lookup(first.kid, policy, 'https://other.example/jwks');
    expect(provider.reads).to.equal(3);
  });
});
