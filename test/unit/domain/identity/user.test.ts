import { expect } from 'chai';
import { User } from '../../../../src/domain/identity/user';

const CREATED = new Date('2026-01-01T00:00:00Z');
const NOW = new Date('2026-02-01T00:00:00Z');
const aUser = () =>
  new User({
    id: '5d0f4f7e-0000-4000-8000-000000000001',
    organizationId: 1,
    name: 'Ada Lovelace',
    email: ' Ada@Example.TEST ',
    passwordHash: 'hash',
    role: 'admin',
    now: CREATED,
  });

describe('a user', () => {
  it('keeps its address normalized (trimmed, lower case)', () => {
    expect(aUser().email).to.equal('ada@example.test');
  });

  it('becomes the platform administrator active, whatever it was', () => {
    const user = aUser();
    user.setActive(false, CREATED);
    user.grantPlatformAdmin(NOW);
    expect(user).to.include({ isGlobalAdmin: true, isActive: true, updatedAt: NOW });
    expect(user.hasPlatformFlag).to.equal(true);
  });

  it('is anonymized when its deletion is carried out: no name, no deliverable address, inactive, no two-step verification', () => {
    const user = aUser();
    user.beginTwoFactorEnrolment('SECRET', ['code-hash'], CREATED);
    user.codeAccepted(CREATED);
    user.anonymize(NOW);
    expect(user).to.include({
      name: 'Deleted user',
      email: 'deleted-5d0f4f7e-0000-4000-8000-000000000001@deleted.invalid',
      isActive: false,
      twoFactorEnabled: false,
      totpSecret: null,
      updatedAt: NOW,
    });
    expect(user.backupCodeHashes).to.deep.equal([]);
  });
});
