import { expect } from 'chai';
import { AgentRegistration } from '../../../../src/domain/agent-access/agent-registration';
import { idJagGrantScopes, type BoundAccount } from '../../../../src/domain/agent-access/id-jag-grant';
import type { AppError } from '../../../../src/domain/shared/app-error';

const NOW = new Date('2026-11-22T10:00:00Z');
function approved(scopes: string[]) {
  const registration = new AgentRegistration({
    id: 'reg_j',
    type: 'service_auth',
    claimTokenHash: 'h',
    userCodeHash: 'u',
    requestedScopes: scopes,
    now: NOW,
    idJag: { issuer: 'https://idp.example', subject: 's', clientId: 'c', userId: 'u1' },
  });
  registration.acceptConsent({ userId: 'u1', email: 'a@b.example', scope: { organizationId: 5, customerId: null } }, scopes, NOW);
  return registration;
}
const account = (overrides: Partial<BoundAccount> = {}): BoundAccount => ({
  id: 'u1',
  isActive: true,
  organizationId: 5,
  customerId: null,
  role: 'editor',
  ...overrides,
});
const reason = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return `${(error as AppError).code}:${(error as AppError).details.error_description}`;
  }
  return 'none';
};

describe('idJagGrantScopes', () => {
  it('grants the approval, or the requested part of it', () => {
    const registration = approved(['api.read', 'api.write.monitors']);
    expect(idJagGrantScopes({ registration, bound: account(), matchedUserId: 'u1', requestedScopes: null })).to.deep.equal([
      'api.read',
      'api.write.monitors',
    ]);
    expect(idJagGrantScopes({ registration, bound: account(), matchedUserId: 'u1', requestedScopes: ['api.read'] })).to.deep.equal([
      'api.read',
    ]);
  });

  it('no_human: the approving account is gone or deactivated', () => {
    const registration = approved(['api.read']);
    expect(reason(() => idJagGrantScopes({ registration, bound: null, matchedUserId: null, requestedScopes: null }))).to.equal(
      'invalid_grant:no_human',
    );
    expect(
      reason(() => idJagGrantScopes({ registration, bound: account({ isActive: false }), matchedUserId: 'u1', requestedScopes: null })),
    ).to.equal('invalid_grant:no_human');
  });

  it('binding_changed: the assertion maps to another account, or the account moved tenant', () => {
    const registration = approved(['api.read']);
    expect(reason(() => idJagGrantScopes({ registration, bound: account(), matchedUserId: 'u2', requestedScopes: null }))).to.equal(
      'invalid_grant:binding_changed',
    );
    expect(
      reason(() => idJagGrantScopes({ registration, bound: account({ customerId: 4 }), matchedUserId: 'u1', requestedScopes: null })),
    ).to.equal('invalid_grant:binding_changed');
  });

  it('scope_exceeds_grant: asks beyond the approval', () => {
    const registration = approved(['api.read']);
    expect(
      reason(() => idJagGrantScopes({ registration, bound: account(), matchedUserId: 'u1', requestedScopes: ['api.write.incidents'] })),
    ).to.equal('invalid_grant:scope_exceeds_grant');
  });

  it("nothing_left: what it asks for is no longer delegable by the account's role", () => {
    const registration = approved(['api.read', 'api.write.monitors']);
    const readonly = account({ role: 'readonly' });
    expect(
      reason(() => idJagGrantScopes({ registration, bound: readonly, matchedUserId: 'u1', requestedScopes: ['api.write.monitors'] })),
    ).to.equal('invalid_grant:nothing_left');
    expect(idJagGrantScopes({ registration, bound: readonly, matchedUserId: 'u1', requestedScopes: null })).to.deep.equal(['api.read']);
  });
});
