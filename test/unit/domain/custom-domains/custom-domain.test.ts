import { expect } from 'chai';
import { CustomDomain, PENDING_LIFETIME_MS } from '../../../../src/domain/custom-domains/custom-domain';
import { hostnameOfHostHeader, isPlatformHostname, normalizeClaimHostname } from '../../../../src/domain/custom-domains/hostname';
import { codeOf } from '../../../support/expect-app-error';

const NOW = new Date('2026-12-01T10:00:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

const aClaim = (overrides: Partial<Parameters<typeof CustomDomain.claim>[0]> = {}) =>
  CustomDomain.claim({
    publicId: '7f0c3c1e-0000-4000-8000-000000000001',
    organizationId: 1,
    customerId: null,
    hostname: 'status.acme.com',
    kind: 'whiteLabel',
    statusPageId: null,
    verificationToken: 'mv-token',
    now: NOW,
    ...overrides,
  });

describe('custom domain claim (domain)', () => {
  describe('hostname', () => {
    it('normalizes case and a trailing dot', () => {
      expect(normalizeClaimHostname('Status.ACME.com.')).to.equal('status.acme.com');
    });

    it('keeps punycode names (IDNs arrive converted)', () => {
      expect(normalizeClaimHostname('xn--bcher-kva.example.de')).to.equal('xn--bcher-kva.example.de');
    });

    it('refuses ports, IP literals, single labels, schemes and paths', () => {
      for (const bad of [
        'status.acme.com:443',
        '203.0.113.7',
        '[2001:db8::1]',
        'localhost',
        'https://acme.com',
        'acme.com/status',
        'a..b.com',
        '',
      ]) {
        expect(normalizeClaimHostname(bad), bad).to.equal(null);
      }
    });

    it('refuses private-use names (.local, .internal, .test)', () => {
      for (const bad of ['nas.local', 'app.internal', 'x.test']) expect(normalizeClaimHostname(bad), bad).to.equal(null);
    });

    it('knows the platform host and every name under it, not look-alikes', () => {
      expect(isPlatformHostname('monitor.example.org', 'monitor.example.org')).to.equal(true);
      expect(isPlatformHostname('acme.monitor.example.org', 'monitor.example.org')).to.equal(true);
      expect(isPlatformHostname('evilmonitor.example.org', 'monitor.example.org')).to.equal(false);
    });

    it('reads a Host header without its port, and not an IP literal', () => {
      expect(hostnameOfHostHeader('Status.Acme.com:8443')).to.equal('status.acme.com');
      expect(hostnameOfHostHeader('127.0.0.1:3000')).to.equal(null);
      expect(hostnameOfHostHeader('[::1]:3000')).to.equal(null);
      expect(hostnameOfHostHeader(undefined)).to.equal(null);
    });
  });

  it('starts pending, expiring 7 days after it was added, with its TXT record name', () => {
    const claim = aClaim();
    expect(claim.status).to.equal('pending');
    expect(claim.expiresAt).to.deep.equal(later(PENDING_LIFETIME_MS));
    expect(claim.verificationRecordName).to.equal('_monitoring-verify.status.acme.com');
  });

  it('a status page claim names its page; a white-label claim names none', () => {
    expect(codeOf(() => aClaim({ kind: 'statusPage', statusPageId: null }))).to.equal('statusPageNotFound');
    expect(codeOf(() => aClaim({ kind: 'whiteLabel', statusPageId: 'page-1' }))).to.equal('statusPageNotFound');
    expect(aClaim({ kind: 'statusPage', statusPageId: 'page-1' }).statusPageId).to.equal('page-1');
  });

  it('is proved only by a TXT value equal to its token', () => {
    const claim = aClaim();
    expect(claim.isProvedBy(['v=spf1 -all', 'mv-token'])).to.equal(true);
    expect(claim.isProvedBy(['mv-token-other', 'v=spf1 -all'])).to.equal(false);
    expect(claim.isProvedBy([])).to.equal(false);
  });

  it('pending -> verified: no longer expires', () => {
    const claim = aClaim();
    claim.verify(later(60_000));
    expect(claim.status).to.equal('verified');
    expect(claim.verifiedAt).to.deep.equal(later(60_000));
    expect(claim.expiresAt).to.equal(null);
    expect(claim.isExpired(later(PENDING_LIFETIME_MS * 2))).to.equal(false);
  });

  it('verified -> active', () => {
    const claim = aClaim();
    claim.verify(NOW);
    claim.activate(later(1_000));
    expect(claim.status).to.equal('active');
    expect(claim.activatedAt).to.deep.equal(later(1_000));
  });

  it('refuses to activate a pending entry (it must be verified first)', () => {
    const claim = aClaim();
    expect(codeOf(() => claim.activate(NOW))).to.equal('conflict');
    expect(claim.status).to.equal('pending');
  });

  it('verifying again or activating again leaves the entry as it is', () => {
    const claim = aClaim();
    claim.verify(NOW);
    claim.activate(NOW);
    claim.verify(later(5_000));
    claim.activate(later(5_000));
    expect(claim.status).to.equal('active');
    expect(claim.verifiedAt).to.deep.equal(NOW);
    expect(claim.activatedAt).to.deep.equal(NOW);
  });

  it('a pending entry is gone at exactly 7 days: verifying it answers customDomainNotFound', () => {
    const claim = aClaim();
    expect(claim.isExpired(later(PENDING_LIFETIME_MS - 1))).to.equal(false);
    expect(claim.isExpired(later(PENDING_LIFETIME_MS))).to.equal(true);
    expect(codeOf(() => claim.verify(later(PENDING_LIFETIME_MS)))).to.equal('customDomainNotFound');
    expect(claim.status).to.equal('pending');
  });
});
