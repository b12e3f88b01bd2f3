import { expect } from 'chai';
import { AgentRegistration, type Grantee } from '../../../../src/domain/agent-access/agent-registration';
import { codeOf } from '../../../support/expect-app-error';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3600_000;

const anonymous = () => new AgentRegistration({ id: 'reg_a', type: 'anonymous', claimTokenHash: 'h1', userCodeHash: 'u1', now: T0 });
const serviceAuth = (loginHint: string | null = null) =>
  new AgentRegistration({ id: 'reg_s', type: 'service_auth', claimTokenHash: 'h2', userCodeHash: 'u2', loginHint, now: T0 });
const idJag = () =>
  new AgentRegistration({
    id: 'reg_j',
    type: 'service_auth',
    claimTokenHash: 'h3',
    userCodeHash: 'u3',
    requestedScopes: ['api.read', 'api.write.monitors'],
    now: T0,
    idJag: { issuer: 'https://idp.example', subject: 'sub', clientId: 'client', userId: 'user-1' },
  });
const grantee = (overrides: Partial<Grantee> = {}): Grantee => ({
  userId: 'user-1',
  email: 'ada@example.com',
  scope: { organizationId: 7, customerId: null },
  ...overrides,
});

describe('AgentRegistration', () => {
  describe('anonymous', () => {
    it('is created active with tools.public and a 24-hour claim window', () => {
      const registration = anonymous();
      expect(registration.state(T0)).to.equal('active');
      expect(registration.scopes).to.deep.equal(['tools.public']);
      expect(registration.claimExpiresAt).to.deep.equal(at(24 * HOUR));
      expect(registration.mintableScopes(T0)).to.deep.equal(['tools.public']);
    });

    it("claimed: api.read in the grantee's organization or single customer", () => {
      const registration = anonymous();
      registration.claim(grantee({ scope: { organizationId: 7, customerId: 3 } }), at(HOUR));
      expect(registration.state(at(HOUR))).to.equal('claimed');
      expect(registration.scopes).to.deep.equal(['api.read']);
      expect(registration.grantScope).to.deep.equal({ organizationId: 7, customerId: 3 });
      expect(registration.userId).to.equal('user-1');
      expect(registration.mintableScopes(at(48 * HOUR))).to.deep.equal(['api.read']);
    });

    it('redeeming the claim token claims it and spends the token', () => {
      const registration = anonymous();
      registration.redeemClaimToken(grantee(), at(HOUR));
      expect(registration.claimTokenRedeemedAt).to.deep.equal(at(HOUR));
      expect(codeOf(() => registration.redeemClaimToken(grantee({ userId: 'user-2' }), at(2 * HOUR)))).to.equal('claimed_or_in_flight');
    });

    it('expires unclaimed after 24 hours: claim_expired, and nothing more to mint', () => {
      const registration = anonymous();
      expect(registration.state(at(24 * HOUR - 1))).to.equal('active');
      expect(registration.state(at(24 * HOUR))).to.equal('expired');
      expect(codeOf(() => registration.claim(grantee(), at(24 * HOUR)))).to.equal('claim_expired');
      expect(codeOf(() => registration.mintableScopes(at(24 * HOUR)))).to.equal('invalid_grant');
    });

    it('cannot be confirmed as service_auth (wrong type)', () => {
      expect(codeOf(() => anonymous().confirm(grantee(), T0))).to.equal('invalid_claim_token');
    });
  });

  describe('service_auth', () => {
    it('starts pending with nothing to mint', () => {
      const registration = serviceAuth();
      expect(registration.state(T0)).to.equal('pending');
      expect(registration.scopes).to.deep.equal([]);
      expect(codeOf(() => registration.mintableScopes(T0))).to.equal('invalid_grant');
    });

    it('pending -> authorized when the bound account confirms (login_hint, case-insensitive)', () => {
      const registration = serviceAuth(' Ada@Example.com ');
      registration.confirm(grantee(), at(HOUR));
      expect(registration.state(at(HOUR))).to.equal('authorized');
      expect(registration.scopes).to.deep.equal(['api.read']);
      expect(registration.grantScope).to.deep.equal({ organizationId: 7, customerId: null });
    });

    it('refuses another account than login_hint, and access that spans tenants', () => {
      expect(codeOf(() => serviceAuth('ada@example.com').confirm(grantee({ email: 'eve@example.com' }), T0))).to.equal(
        'invalid_claim_token',
      );
      expect(codeOf(() => serviceAuth().confirm(grantee({ scope: null }), T0))).to.equal('invalid_claim_token');
    });

    it('a second confirmation answers claimed_or_in_flight; a revoked one invalid_claim_token', () => {
      const confirmed = serviceAuth();
      confirmed.confirm(grantee(), T0);
      expect(codeOf(() => confirmed.confirm(grantee(), at(1)))).to.equal('claimed_or_in_flight');
      const revoked = serviceAuth();
      revoked.revoke(T0);
      expect(codeOf(() => revoked.confirm(grantee(), at(1)))).to.equal('invalid_claim_token');
    });

    it('expires unconfirmed after 24 hours', () => {
      expect(codeOf(() => serviceAuth().confirm(grantee(), at(24 * HOUR)))).to.equal('claim_expired');
    });
  });

  describe('claim grant polling', () => {
    it('authorization_pending, slow_down under 5 s, then granted once, then expired_token', () => {
      const registration = serviceAuth();
      expect(registration.poll(T0)).to.equal('authorization_pending');
      expect(registration.poll(at(4_999))).to.equal('slow_down');
      registration.confirm(grantee(), at(6_000));
      expect(registration.poll(at(9_000))).to.equal('slow_down');
      expect(registration.poll(at(14_000))).to.equal('granted');
      expect(codeOf(() => registration.poll(at(20_000)))).to.equal('expired_token');
    });

    it('expired_token once the window closed or the registration was revoked', () => {
      expect(codeOf(() => serviceAuth().poll(at(24 * HOUR)))).to.equal('expired_token');
      const revoked = anonymous();
      revoked.revoke(T0);
      expect(codeOf(() => revoked.poll(at(1)))).to.equal('expired_token');
    });

    it("an anonymous agent's poll pays out api.read after a claim through its code", () => {
      const registration = anonymous();
      expect(registration.poll(T0)).to.equal('authorization_pending');
      registration.claim(grantee(), at(10_000));
      expect(registration.poll(at(10_000))).to.equal('granted');
    });
  });

  describe('ID-JAG registrations', () => {
    it('are bound to the matched account: nobody else may act on them', () => {
      expect(codeOf(() => idJag().checkClaimant(grantee({ userId: 'user-2' }), T0))).to.equal('invalid_claim_token');
      expect(idJag().checkClaimant(grantee(), T0)).to.deep.equal({ organizationId: 7, customerId: null });
    });

    it('go through the consent step only, which authorizes them with the selected scopes', () => {
      const registration = idJag();
      expect(codeOf(() => registration.confirm(grantee(), T0))).to.equal('invalid_claim_token');
      registration.acceptConsent(grantee(), ['api.write.monitors'], at(1));
      expect(registration.state(at(1))).to.equal('authorized');
      expect(registration.scopes).to.deep.equal(['api.write.monitors']);
    });

    it('a decision reaching a settled, expired or revoked registration answers consentForwardRejected', () => {
      const settled = idJag();
      settled.acceptConsent(grantee(), ['api.read'], T0);
      expect(codeOf(() => settled.acceptConsent(grantee(), ['api.read'], at(1)))).to.equal('consentForwardRejected');
      expect(codeOf(() => idJag().acceptConsent(grantee(), ['api.read'], at(24 * HOUR)))).to.equal('consentForwardRejected');
      const revoked = idJag();
      revoked.revoke(T0);
      expect(codeOf(() => revoked.denyConsent(at(1)))).to.equal('consentForwardRejected');
    });

    it('a denial revokes the registration', () => {
      const registration = idJag();
      registration.denyConsent(T0);
      expect(registration.state(T0)).to.equal('revoked');
    });
  });

  it('revocation from any state is final and idempotent', () => {
    const registration = anonymous();
    registration.claim(grantee(), T0);
    registration.revoke(at(1));
    registration.revoke(at(2));
    expect(registration.revokedAt).to.deep.equal(at(1));
    expect(codeOf(() => registration.mintableScopes(at(3)))).to.equal('invalid_grant');
  });
});
