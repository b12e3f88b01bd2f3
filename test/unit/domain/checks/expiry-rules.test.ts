import { expect } from 'chai';
import { daysUntil, evaluateCertificate } from '../../../../src/domain/checks/certificate-expiry';
import { evaluateDomainExpiry, registrableCandidates } from '../../../../src/domain/checks/domain-expiry';

const now = new Date('2026-11-22T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);
const cert = (days: number, authorized = true) => ({
  validFrom: inDays(-30),
  validTo: inDays(days),
  authorized,
  authorizationError: authorized ? null : 'DEPTH_ZERO_SELF_SIGNED_CERT',
});
const codes = (f: { status: string; code: string }[]) => f.map((x) => `${x.status}:${x.code}`);

describe('certificate expiry (sslNoticeDays)', () => {
  it('counts whole days remaining', () => {
    expect(daysUntil(inDays(14.5), now)).to.equal(14);
  });
  it('is degraded within the notice days, up beyond them', () => {
    expect(codes(evaluateCertificate(cert(14), { noticeDays: 14, verify: true }, now))).to.deep.equal(['degraded:sslExpiringSoon']);
    expect(codes(evaluateCertificate(cert(15), { noticeDays: 14, verify: true }, now))).to.deep.equal([]);
  });
  it('is down once expired or not yet valid', () => {
    expect(codes(evaluateCertificate(cert(-1), { noticeDays: 14, verify: true }, now))).to.deep.equal(['down:sslExpired']);
    expect(codes(evaluateCertificate({ ...cert(90), validFrom: inDays(1) }, { noticeDays: 14, verify: true }, now))).to.deep.equal([
      'down:sslInvalid',
    ]);
  });
  it('is down when untrusted, unless verification is off (connectTlsInsecure)', () => {
    expect(codes(evaluateCertificate(cert(90, false), { noticeDays: 14, verify: true }, now))).to.deep.equal(['down:sslInvalid']);
    expect(codes(evaluateCertificate(cert(90, false), { noticeDays: 14, verify: false }, now))).to.deep.equal([]);
  });
});

describe('domain expiry (expiryWarningDays / expiryErrorDays)', () => {
  const reg = (days: number | null) => ({
    domain: 'example.com',
    expiresAt: days === null ? null : inDays(days),
    registrar: 'R',
    source: 'rdap' as const,
  });
  const limits = { warningDays: 30, errorDays: 7 };
  it('warns at the warning days and errors at the error days', () => {
    expect(codes(evaluateDomainExpiry(reg(31), limits, now))).to.deep.equal([]);
    expect(codes(evaluateDomainExpiry(reg(30), limits, now))).to.deep.equal(['degraded:domainExpiresSoon']);
    expect(codes(evaluateDomainExpiry(reg(7), limits, now))).to.deep.equal(['down:domainExpiresSoon']);
    expect(codes(evaluateDomainExpiry(reg(-1), limits, now))).to.deep.equal(['down:domainExpired']);
    expect(codes(evaluateDomainExpiry(reg(null), limits, now))).to.deep.equal(['down:domainLookupFailed']);
  });
  it('looks up registrable candidates longest first', () => {
    expect(registrableCandidates('www.Example.co.uk.')).to.deep.equal(['www.example.co.uk', 'example.co.uk', 'co.uk']);
    expect(registrableCandidates('localhost')).to.deep.equal([]);
  });
});
