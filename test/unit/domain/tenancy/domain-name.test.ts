import { expect } from 'chai';
import { normalizeDomainName } from '../../../../src/domain/tenancy/domain-name';

describe('normalizeDomainName', () => {
  it('lowercases, trims and drops a trailing dot', () => {
    expect(normalizeDomainName(' Example.COM. ')).to.equal('example.com');
    expect(normalizeDomainName('sub.xn--bcher-kva.example')).to.equal('sub.xn--bcher-kva.example');
    expect(normalizeDomainName('shop.xn--p1ai')).to.equal('shop.xn--p1ai');
  });

  for (const bad of [
    'localhost',
    'com',
    '192.0.2.1',
    'a..b.com',
    '-a.com',
    'a-.com',
    'exa mple.com',
    'a_b.com',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
    'example.123',
  ]) {
    it(`refuses ${JSON.stringify(bad.length > 30 ? `${bad.slice(0, 30)}...` : bad)}`, () => {
      expect(normalizeDomainName(bad)).to.equal(null);
    });
  }
});
