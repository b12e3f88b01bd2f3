import { expect } from 'chai';
import { requirePlatformStaff } from '../../../../src/application/platform-admin/platform-staff';
import { ChangeUserActivation } from '../../../../src/application/platform-admin/change-user-activation';
import { GetAdminUser } from '../../../../src/application/platform-admin/get-admin-user';
import { Session } from '../../../../src/domain/identity/session';
import { FakeSessions, FakeUsers } from '../../../support/fakes/identity-fakes';
import { FakeAdminUserViews } from '../../../support/fakes/platform-admin-fakes';
import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { anActor, aUser } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

const PLATFORM_ADMIN = anActor().withUser('platform-admin').inOrganization(99).platformAdmin().build();
const SUPPORTER = anActor().withUser('supporter').inOrganization(99).platformSupporter().build();

function setup() {
  const users = new FakeUsers();
  const sessions = new FakeSessions();
  const clock = new ManualClock();
  const views = new FakeAdminUserViews(users, sessions);
  const activation = new ChangeUserActivation(views, users, sessions, immediateTransactions, clock);
  const person = async (id: string, organizationId: number, role: 'admin' | 'editor' = 'admin') => {
    await users.add(aUser(id).inOrganization(organizationId).withRole(role).build());
    await sessions.add(new Session({ id: `${id}-session`, userId: id, tokenHash: `${id}-hash`, kind: 'session', now: clock.now() }));
  };
  return { users, sessions, clock, views, activation, person };
}

describe('platform staff views: who may look and act', () => {
  it('lets platform admins and supporters in, signed in as people', () => {
    expect(codeOf(() => requirePlatformStaff(PLATFORM_ADMIN))).to.equal(undefined);
    expect(codeOf(() => requirePlatformStaff(SUPPORTER))).to.equal(undefined);
  });

  it("refuses organization users (admins included) and every token, a platform admin's too, with platformAdminRequired", () => {
    const refused = [
      anActor().build(),
      anActor().withRole('readonly').build(),
      anActor().platformAdmin().viaApiToken().build(),
      anActor().platformSupporter().viaApiToken().build(),
      anActor().platformAdmin().asAgent(['api.read']).build(),
    ];
    for (const actor of refused)
      expect(
        codeOf(() => requirePlatformStaff(actor)),
        JSON.stringify(actor),
      ).to.equal('platformAdminRequired');
  });

  it('lets supporters read a user but not deactivate one (platformAdminRequired)', async () => {
    const { activation, views, users, clock, person } = setup();
    await person('ada', 1);
    await person('bob', 1);
    expect((await new GetAdminUser(views, clock).execute(SUPPORTER, { id: 'bob' })).email).to.equal('bob@users.test');
    expect(await codeOf(activation.execute(SUPPORTER, { id: 'bob', isActive: false }))).to.equal('platformAdminRequired');
    expect(users.rows.get('bob')!.isActive).to.equal(true);
  });

  it('deactivates a user of another organization and ends their sessions; reactivating lets them back', async () => {
    const { activation, users, sessions, person } = setup();
    await person('ada', 1);
    await person('bob', 1, 'editor');
    const deactivated = await activation.execute(PLATFORM_ADMIN, { id: 'bob', isActive: false });
    expect(deactivated).to.include({ isActive: false, activeSessions: 0 });
    expect(users.rows.get('bob')!.isActive).to.equal(false);
    expect([...sessions.rows.values()].map((s) => s.userId)).to.deep.equal(['ada']);
    expect(await activation.execute(PLATFORM_ADMIN, { id: 'bob', isActive: true })).to.include({ isActive: true });
  });

  it("keeps an organization's last active admin (lastAdminProtected) and refuses self-deactivation", async () => {
    const { activation, users, person } = setup();
    await person('sole-admin', 1);
    expect(await codeOf(activation.execute(PLATFORM_ADMIN, { id: 'sole-admin', isActive: false }))).to.equal('lastAdminProtected');
    await users.add(aUser('platform-admin').inOrganization(99).with({ isGlobalAdmin: true }).build());
    await users.add(aUser('second-admin').inOrganization(99).build());
    expect(await codeOf(activation.execute(PLATFORM_ADMIN, { id: 'platform-admin', isActive: false }))).to.equal('userSelfChangeForbidden');
  });

  it('answers userNotFound for an unknown user', async () => {
    const { activation, views, clock } = setup();
    expect(await codeOf(activation.execute(PLATFORM_ADMIN, { id: 'nobody', isActive: false }))).to.equal('userNotFound');
    expect(await codeOf(new GetAdminUser(views, clock).execute(SUPPORTER, { id: 'nobody' }))).to.equal('userNotFound');
  });
});
