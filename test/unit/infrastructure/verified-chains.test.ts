import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { ChainDescription } from '../../../src/infrastructure/protocols/shared/certificate';
import { VerifiedChains } from '../../../src/infrastructure/protocols/shared/verified-chains';
import { testCertificates } from '../../support/peers/certificates';

describe('VerifiedChains', () => {
  const certs = testCertificates();
  const HOUR = 3_600_000;
  const T0 = Date.parse('2026-11-22T12:00:00Z');
  let now: number;
  const presenting = (pem: string) => ({ getPeerX509Certificate: () => new X509Certificate(pem) }) as unknown as TLSSocket;
  const description = (validFrom: number, validTo: number, chain: ChainDescription['chain'] = []): ChainDescription => ({
    leaf: {
      subject: 'localhost',
      issuer: 'Checks Test CA',
      validFrom: new Date(validFrom).toISOString(),
      validTo: new Date(validTo).toISOString(),
      fingerprint: 'AA',
    },
    subjectAltNames: ['localhost'],
    authorized: true,
    authorizationError: null,
    chain,
  });
  const valid = presenting(certs.valid.cert);
  const lasting = description(T0 - 30 * 86_400_000, T0 + 60 * 86_400_000);

  beforeEach(() => {
    now = T0;
  });
  const chains = (capacity?: number) => new VerifiedChains({ clock: () => now, ttlMs: HOUR, capacity });

  it('answers the verdict for the same certificates under the same name, and counts hits and misses', () => {
    const verified = chains();
    expect(verified.expects('a')).to.equal(false);
    verified.remember('a', valid, 'localhost', lasting);
    expect(verified.expects('a')).to.equal(true);
    expect(verified.lookup(valid, 'localhost')).to.deep.equal(lasting);
    expect(verified.lookup(valid, '127.0.0.1')).to.equal(null);
    expect(verified.lookup(presenting(certs.expiring.cert), 'localhost')).to.equal(null);
    expect(verified.stats).to.deep.equal({ hits: 1, misses: 2 });
  });

  it('lets a verdict stand for the time to live at most', () => {
    const verified = chains();
    verified.remember('a', valid, 'localhost', lasting);
    now = T0 + HOUR - 1;
    expect(verified.lookup(valid, 'localhost')).to.deep.equal(lasting);
    now = T0 + HOUR;
    expect(verified.lookup(valid, 'localhost')).to.equal(null);
    expect(verified.expects('a')).to.equal(false);
  });

  it('ends a verdict at the first validity boundary ahead in its chain, not at one passed', () => {
    const verified = chains();
    const issuerExpiring = {
      subject: 'Checks Test CA',
      issuer: 'Checks Test CA',
      validFrom: new Date(T0 - 86_400_000).toISOString(),
      validTo: new Date(T0 + 60_000).toISOString(),
      fingerprint: 'BB',
    };
    verified.remember('a', valid, 'localhost', description(T0 - 86_400_000, T0 + 86_400_000, [issuerExpiring]));
    now = T0 + 59_999;
    expect(verified.lookup(valid, 'localhost')).to.not.equal(null);
    now = T0 + 60_000;
    expect(verified.lookup(valid, 'localhost')).to.equal(null);

    now = T0;
    const notYetValid = description(T0 + 120_000, T0 + 86_400_000);
    verified.remember('b', valid, 'other', notYetValid);
    now = T0 + 119_999;
    expect(verified.lookup(valid, 'other')).to.deep.equal(notYetValid);
    now = T0 + 120_000;
    expect(verified.lookup(valid, 'other')).to.equal(null);

    now = T0;
    const expired = description(T0 - 2 * 86_400_000, T0 - 86_400_000);
    verified.remember('c', valid, 'third', expired);
    now = T0 + HOUR - 1;
    expect(verified.lookup(valid, 'third')).to.deep.equal(expired);
  });

  it('keeps at most `capacity` verdicts and targets, dropping the oldest', () => {
    const verified = chains(2);
    verified.remember('a', valid, 'one', lasting);
    verified.remember('b', valid, 'two', lasting);
    verified.remember('a', valid, 'one', lasting);
    verified.remember('c', valid, 'three', lasting);
    expect(verified.expects('a')).to.equal(true);
    expect(verified.expects('b')).to.equal(false);
    expect(verified.lookup(valid, 'two')).to.equal(null);
    expect(verified.lookup(valid, 'three')).to.deep.equal(lasting);
  });

  it('keeps one copy of an issuer that signs several chains', () => {
    const verified = chains();
    const issuer = () => ({
      subject: 'Checks Test CA',
      issuer: 'Checks Test CA',
      validFrom: new Date(T0).toISOString(),
      validTo: new Date(T0 + 86_400_000).toISOString(),
      fingerprint: 'CA',
    });
    verified.remember('a', valid, 'one', description(T0 - 1, T0 + 86_400_000, [issuer()]));
    verified.remember('b', valid, 'two', description(T0 - 1, T0 + 86_400_000, [issuer()]));
    const [one, two] = [verified.lookup(valid, 'one')!, verified.lookup(valid, 'two')!];
    expect(one.chain).to.deep.equal([issuer()]);
    expect(two.chain[0]).to.equal(one.chain[0]);
  });
});
