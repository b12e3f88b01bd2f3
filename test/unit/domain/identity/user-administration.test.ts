import { expect } from 'chai';
import { User } from '../../../../src/domain/identity/user';
import { assertUserChangeAllowed, type UserChange } from '../../../../src/domain/identity/user-administration';
import { codeOf } from '../../../support/expect-app-error';

const aUser = (overrides: Partial<User> = {}) => Object.assign(new User({
  id: 'target', organizationId: 1, name: 'T', email: 't@x.example', passwordHash: 'h', role: 'admin', now: new Date(),
}), overrides);

/** The code refusing the change, or 'allowed'. */
const verdict = (target: User, change: UserChange, ctx: Partial<Parameters<typeof assertUserChangeAllowed>[2]> = {}) =>
  codeOf(() => assertUserChangeAllowed(target, change, { actorUserId: 'actor', actorIsPlatformAdmin: false, activeAdminCount: 2, ...ctx })) ?? 'allowed';

describe('user administration rules', () => {
  it('protects users with a platform flag from everyone but platform admins', () => {
    expect(verdict(aUser({ isGlobalSupporter: true }), { isActive: false })).to.equal('globalUserProtected');
    expect(verdict(aUser({ isGlobalAdmin: true }), { isActive: false }, { actorIsPlatformAdmin: true })).to.equal('allowed');
  });

  it('refuses changing your own role, deactivating or deleting yourself', () => {
    expect(verdict(aUser(), { role: 'editor' }, { actorUserId: 'target' })).to.equal('userSelfChangeForbidden');
    expect(verdict(aUser(), { isActive: false }, { actorUserId: 'target' })).to.equal('userSelfChangeForbidden');
    expect(verdict(aUser(), { remove: true }, { actorUserId: 'target' })).to.equal('userSelfChangeForbidden');
    expect(verdict(aUser(), { role: 'admin', isActive: true }, { actorUserId: 'target' })).to.equal('allowed');
  });

  it('protects the last active admin from demotion, deactivation and deletion', () => {
    for (const change of [{ role: 'editor' as const }, { isActive: false }, { remove: true }]) {
      expect(verdict(aUser(), change, { activeAdminCount: 1 })).to.equal('lastAdminProtected');
      expect(verdict(aUser(), change, { activeAdminCount: 2 })).to.equal('allowed');
    }
  });

  it('reports lastAdminProtected to a sole admin changing themselves', () => {
    expect(verdict(aUser(), { role: 'editor' }, { actorUserId: 'target', activeAdminCount: 1 })).to.equal('lastAdminProtected');
  });

  it('does not count inactive or non-admin targets as losing an admin', () => {
    expect(verdict(aUser({ role: 'editor' }), { remove: true }, { activeAdminCount: 1 })).to.equal('allowed');
    expect(verdict(aUser({ isActive: false }), { remove: true }, { activeAdminCount: 1 })).to.equal('allowed');
  });
});
