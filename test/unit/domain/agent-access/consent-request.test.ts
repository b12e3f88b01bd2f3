import { expect } from 'chai';
import { ConsentRequest } from '../../../../src/domain/agent-access/consent-request';
import { codeOf } from '../../../support/expect-app-error';

const NOW = new Date('2026-11-22T10:00:00Z');
const request = () =>
  new ConsentRequest({
    id: 'c1',
    code: 'cns_x',
    registrationId: 'reg_1',
    clientId: 'app',
    userId: 'owner',
    requestedScopes: ['api.read', 'api.write.monitors'],
    now: NOW,
  });

describe('ConsentRequest', () => {
  it('accepts the whole request when no selection is sent', () => {
    const consent = request();
    expect(consent.decide('owner', { accept: true, scopes: null }, NOW)).to.deep.equal(['api.read', 'api.write.monitors']);
    expect(consent.status).to.equal('accepted');
  });

  it('accepts a narrower selection', () => {
    const consent = request();
    expect(consent.decide('owner', { accept: true, scopes: ['api.read'] }, NOW)).to.deep.equal(['api.read']);
    expect(consent.grantedScopes).to.deep.equal(['api.read']);
  });

  it('denies with nothing granted, whatever the selection', () => {
    const consent = request();
    expect(consent.decide('owner', { accept: false, scopes: ['api.write.incidents'] }, NOW)).to.deep.equal([]);
    expect(consent.status).to.equal('denied');
  });

  it('checks owner, then settled, then empty selection, then escalation', () => {
    expect(codeOf(() => request().decide('other', { accept: true, scopes: [] }, NOW))).to.equal('consentCodeNotOwned');
    const settled = request();
    settled.decide('owner', { accept: false, scopes: null }, NOW);
    expect(codeOf(() => settled.decide('owner', { accept: true, scopes: [] }, NOW))).to.equal('consentAlreadySettled');
    expect(codeOf(() => request().decide('owner', { accept: true, scopes: [] }, NOW))).to.equal('emptyConsentSelection');
    expect(codeOf(() => request().decide('owner', { accept: true, scopes: ['api.read', 'api.write.incidents'] }, NOW))).to.equal(
      'consentScopeEscalation',
    );
  });
});
