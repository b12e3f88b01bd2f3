import { expect } from 'chai';
import { AccountDeletion } from '../../../../src/application/identity/account-deletion';
import { UserAdministration } from '../../../../src/application/identity/user-administration';
import type { PasswordHasher } from '../../../../src/application/identity/ports';
import type { Role } from '../../../../src/domain/identity/role';
import { FakeCustomerDirectory, FakeDeletions, FakeSessions, FakeUsers, RecordingNotifier } from '../../../support/fakes/identity-fakes';
import { FakeTransaction, immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { anActor, aUser } from '../../../support/builders';

const plainPasswords: PasswordHasher = {
  hash: async (password) => `hashed:${password}`,
  verify: async (hash, password) => hash === `hashed:${password}`,
};

/** Identity's use cases hand the runner's transaction to the writes that must commit together (docs/architecture.md). */
describe('identity use cases: writes join the transaction they run in', () => {
  function people() {
    const users = new FakeUsers();
    const clock = new ManualClock();
    const person = (id: string, role: Role) => users.add(aUser(id).withRole(role).createdAt(clock.now()).build());
    return { users, clock, person };
  }

  it('an administrator changing or removing a user writes in the transaction that counted the administrators', async () => {
    const { users, clock, person } = people();
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    const administration = new UserAdministration(
      users,
      new FakeSessions(),
      new FakeCustomerDirectory(),
      plainPasswords,
      immediateTransactions,
      sequentialIds(),
      clock,
    );
    users.writes.length = 0;
    await administration.update(anActor().build(), 'editor-1', { name: 'Renamed' });
    await administration.remove(anActor().build(), 'editor-1');
    expect(users.writes.map(({ write }) => write)).to.deep.equal(['save', 'remove']);
    expect(users.writes.every(({ tx }) => tx instanceof FakeTransaction)).to.equal(true);
  });

  it('a deletion carried out anonymises the account in the transaction that completes the request', async () => {
    const { users, clock, person } = people();
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    const deletion = new AccountDeletion(
      new FakeDeletions(),
      users,
      new FakeSessions(),
      new RecordingNotifier(),
      immediateTransactions,
      sequentialIds(),
      clock,
    );
    await deletion.request(anActor().withUser('editor-1').withRole('editor').build());
    clock.advance(31 * 24 * 3600_000);
    users.writes.length = 0;
    expect(await deletion.completeDue()).to.equal(1);
    expect(users.writes).to.have.length(1);
    expect(users.writes[0]!.tx).to.be.instanceOf(FakeTransaction);
  });
});
