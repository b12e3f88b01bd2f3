import { expect } from 'chai';
import { AccountDeletionRequest, ACCOUNT_DELETION_GRACE_MS } from '../../../../src/domain/identity/account-deletion';
import { AppError } from '../../../../src/domain/shared/app-error';
import { codeOf } from '../../../support/expect-app-error';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const request = (isSoleActiveAdmin = false) =>
  AccountDeletionRequest.request({ id: 'r1', userId: 'u1', organizationId: 7, isSoleActiveAdmin, now: t0 });

describe('AccountDeletionRequest state machine', () => {
  it('(none) -> requested: takes effect 30 days later', () => {
    const r = request();
    expect(r.status).to.equal('requested');
    expect(r.effectiveAt.getTime() - r.requestedAt.getTime()).to.equal(ACCOUNT_DELETION_GRACE_MS);
  });

  it('refuses the sole active admin with accountDeletionSoleOwner and the organization id', () => {
    try {
      request(true);
      expect.fail('should throw');
    } catch (error) {
      expect((error as AppError).code).to.equal('accountDeletionSoleOwner');
      expect((error as AppError).details).to.deep.equal({ organizationId: 7 });
    }
  });

  it('requested -> withdrawn within the grace period', () => {
    const r = request();
    r.withdraw(at(ACCOUNT_DELETION_GRACE_MS - 1));
    expect(r.status).to.equal('withdrawn');
    expect(r.withdrawnAt).to.deep.equal(at(ACCOUNT_DELETION_GRACE_MS - 1));
  });

  it('refuses withdrawal once the grace period has ended', () => {
    expect(codeOf(() => request().withdraw(at(ACCOUNT_DELETION_GRACE_MS)))).to.equal('accountDeletionNotRequested');
  });

  it('withdrawn -> withdraw again is refused', () => {
    const r = request();
    r.withdraw(at(1));
    expect(codeOf(() => r.withdraw(at(2)))).to.equal('accountDeletionNotRequested');
  });

  it('requested -> completed only when due', () => {
    const r = request();
    expect(r.isDue(at(ACCOUNT_DELETION_GRACE_MS - 1))).to.equal(false);
    expect(codeOf(() => r.complete(at(ACCOUNT_DELETION_GRACE_MS - 1)))).to.equal('accountDeletionNotRequested');
    r.complete(at(ACCOUNT_DELETION_GRACE_MS));
    expect(r.status).to.equal('completed');
  });

  it('withdrawn -> complete is refused', () => {
    const r = request();
    r.withdraw(at(1));
    expect(codeOf(() => r.complete(at(ACCOUNT_DELETION_GRACE_MS + 1)))).to.equal('accountDeletionNotRequested');
  });
});
