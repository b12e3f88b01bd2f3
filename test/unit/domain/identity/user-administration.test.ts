import { expect } from 'chai';
import type { User } from '../../../../src/domain/identity/user';
import { assertUserChangeAllowed, type UserChange } from '../../../../src/domain/identity/user-administration';
import { codeOf } from '../../../support/expect-app-error';
import { aUser } from '../../../support/builders';

/** The user whose change is judged: an active admin unless told otherwise. */
const target = (fields: Partial<User> = {}) => aUser('target').with(fields).build();

/** The code refusing the change, or 'allowed'. */
const verdict = (target: User, change: UserChange, ctx: Partial<Parameters<typeof assertUserChangeAllowed>[2]> = {}) =>
  codeOf(() =>
    assertUserChangeAllowed(target, change, { actorUserId: 'actor', actorIsPlatformAdmin: false, activeAdminCount: 2, ...ctx }),
  ) ?? 'allowed';

describe('user administration rules', () => {
  it('protects users with a platform flag from everyone but platform admins', () => {
    expect(verdict(target({ isGlobalSupporter: true }), { isActive: false })).to.equal('globalUserProtected');
    expect(verdict(target({ isGlobalAdmin: true }), { isActive: false }, { actorIsPlatformAdmin: true })).to.equal('allowed');
  });

  it('refuses changing your own role, deactivating or deleting yourself', () => {
    expect(verdict(target(), { role: 'editor' }, { actorUserId: 'target' })).to.equal('userSelfChangeForbidden');
    expect(verdict(target(), { isActive: false }, { actorUserId: 'target' })).to.equal('userSelfChangeForbidden');
    expect(verdict(target(), { remove: true }, { actorUserId: 'target' })).to.equal('userSelfChangeForbidden');
    expect(verdict(target(), { role: 'admin', isActive: true }, { actorUserId: 'target' })).to.equal('allowed');
  });

  it('protects the last active admin from demotion, deactivation and deletion', () => {
    for (const change of [{ role: 'editor' as const }, { isActive: false }, { remove: true }]) {
      expect(verdict(target(), change, { activeAdminCount: 1 })).to.equal('lastAdminProtected');
      expect(verdict(target(), change, { activeAdminCount: 2 })).to.equal('allowed');
    }
  });

  it('reports lastAdminProtected to a sole admin changing themselves', () => {
    expect(verdict(target(), { role: 'editor' }, { actorUserId: 'target', activeAdminCount: 1 })).to.equal('lastAdminProtected');
  });

  it('does not count inactive or non-admin targets as losing an admin', () => {
    expect(verdict(target({ role: 'editor' }), { remove: true }, { activeAdminCount: 1 })).to.equal('allowed');
    expect(verdict(target({ isActive: false }), { remove: true }, { activeAdminCount: 1 })).to.equal('allowed');
  });
});
