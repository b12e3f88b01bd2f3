import { expect } from 'chai';
import type * as oidc from 'openid-client';
import { DiscoveryCache } from '../../../../src/infrastructure/identity/openid-relying-party';
import type { TargetPolicy } from '../../../../src/application/shared/target-policy';

const ISSUER = 'https://idp.example/';
const metadata = { issuer: ISSUER, token_endpoint: `${ISSUER}token` } as oidc.ServerMetadata;
const aPolicy = () => ({}) as TargetPolicy;

describe('DiscoveryCache', () => {
  it('keeps a discovery document for its lifetime, then forgets it', () => {
    let now = 0;
    const cache = new DiscoveryCache(300_000, () => now);
    const policy = aPolicy();
    cache.set(policy, ISSUER, metadata);
    now = 299_999;
    expect(cache.get(policy, ISSUER)).to.equal(metadata);
    now = 300_000;
    expect(cache.get(policy, ISSUER)).to.equal(null);
  });

  it('never answers a document read under one target policy to another, nor for another issuer', () => {
    const cache = new DiscoveryCache(300_000, () => 0);
    const policy = aPolicy();
    cache.set(policy, ISSUER, metadata);
    expect(cache.get(aPolicy(), ISSUER)).to.equal(null);
    expect(cache.get(policy, 'https://other.example/')).to.equal(null);
  });
});
