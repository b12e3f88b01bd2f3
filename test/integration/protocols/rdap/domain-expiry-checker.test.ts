import { expect } from 'chai';
import { RdapDomainExpiryChecker } from '../../../../src/infrastructure/protocols/rdap/rdap-domain-expiry-checker';
import { RdapClient } from '../../../../src/infrastructure/protocols/rdap/rdap-client';
import { WhoisClient } from '../../../../src/infrastructure/protocols/rdap/whois-client';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import { applyDomainExpiryResult, UNCHECKED_EXPIRY } from '../../../../src/domain/tenancy/watch-results';
import type { DomainExpiryCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy } from '../../../support/loopback-target-policy';
import { RdapPeer } from '../../../support/peers/rdap-peer';
import { checkContext, TEST_USER_AGENT } from '../../../support/check-requests';

describe('Domain expiry checker against loopback RDAP and WHOIS servers', () => {
  const peer = new RdapPeer();
  const now = new Date('2026-11-22T00:00:00Z');
  let checker: RdapDomainExpiryChecker;
  const request = (domain: string): DomainExpiryCheckRequest => ({
    kind: 'domainExpiry',
    domain,
    warningDays: 30,
    errorDays: 7,
    timeoutSeconds: 3,
  });

  before(async () => {
    await peer.start();
    const policy = new LoopbackTargetPolicy();
    checker = new RdapDomainExpiryChecker(
      new RdapClient(policy, new SharedTlsContext(), peer.bootstrapUrl, TEST_USER_AGENT),
      new WhoisClient(policy, peer.whoisServer),
    );
    peer.rdapDomains.set('example.test', { expiresAt: '2027-06-01T00:00:00Z', registrar: 'Example Registrar' });
    peer.rdapDomains.set('soon.test', { expiresAt: '2026-12-10T00:00:00Z', registrar: 'Example Registrar' });
    peer.rdapDomains.set('urgent.test', { expiresAt: '2026-11-25T00:00:00Z', registrar: 'Example Registrar' });
    peer.rdapDomains.set('gone.test', { expiresAt: '2026-11-01T00:00:00Z', registrar: 'Example Registrar' });
    peer.whoisDomains.set('legacy.whois', { expiresAt: '2027-01-31T00:00:00Z', registrar: 'Old Registrar Inc.' });
  });
  after(() => peer.stop());
  afterEach(() => {
    peer.failing = false;
  });

  it('reads expiry and registrar over RDAP, walking up from a host name', async () => {
    const result = await checker.check(request('www.example.test'), checkContext(3000, now));
    expect(result.status).to.equal('up');
    expect(result.evidence.domain).to.deep.equal({
      domain: 'example.test',
      expiresAt: '2027-06-01T00:00:00.000Z',
      registrar: 'Example Registrar',
      daysRemaining: 191,
      source: 'rdap',
    });
  });

  it("asks the registry (bootstrap and lookup) with the service's User-Agent", async () => {
    const fresh = new RdapDomainExpiryChecker(
      new RdapClient(new LoopbackTargetPolicy(), new SharedTlsContext(), peer.bootstrapUrl, TEST_USER_AGENT),
      new WhoisClient(new LoopbackTargetPolicy(), peer.whoisServer),
    );
    peer.userAgents.length = 0;
    expect((await fresh.check(request('example.test'), checkContext(3000, now))).status).to.equal('up');
    expect(peer.userAgents).to.deep.equal([TEST_USER_AGENT, TEST_USER_AGENT]);
  });

  it('warns at expiryWarningDays, errors at expiryErrorDays, and is down once expired', async () => {
    expect((await checker.check(request('soon.test'), checkContext(3000, now))).status).to.equal('degraded');
    const urgent = await checker.check(request('urgent.test'), checkContext(3000, now));
    expect(urgent.status).to.equal('down');
    expect(urgent.reason?.code).to.equal('domainExpiresSoon');
    expect((await checker.check(request('gone.test'), checkContext(3000, now))).reason?.code).to.equal('domainExpired');
  });

  it('falls back to WHOIS for a TLD without RDAP', async () => {
    const result = await checker.check(request('legacy.whois'), checkContext(3000, now));
    expect(result.status).to.equal('up');
    expect(result.evidence.domain).to.include({ source: 'whois', registrar: 'Old Registrar Inc.', expiresAt: '2027-01-31T00:00:00.000Z' });
  });

  it('is down with domainLookupFailed when no registry knows the name, and keeps the last expiry in the state', async () => {
    const found = await checker.check(request('example.test'), checkContext(3000, now));
    const missing = await checker.check(request('unknown.test'), checkContext(3000, now));
    expect(missing.reason?.code).to.equal('domainLookupFailed');
    const state = applyDomainExpiryResult(applyDomainExpiryResult(UNCHECKED_EXPIRY, found, now), missing, now);
    expect(state.domainExpiresAt?.toISOString()).to.equal('2027-06-01T00:00:00.000Z');
    expect(state.domainRegistrar).to.equal('Example Registrar');
    expect(state.lastError).to.be.a('string');
  });

  it('falls back to WHOIS when RDAP fails', async () => {
    peer.failing = true;
    peer.whoisDomains.set('example.test', { expiresAt: '2027-06-01T00:00:00Z', registrar: 'Example Registrar' });
    const result = await checker.check(request('example.test'), checkContext(3000, now));
    expect(result.evidence.domain?.source).to.equal('whois');
  });
});
