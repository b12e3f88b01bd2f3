import { expect } from 'chai';
import { anIdentityWorld } from '../../../support/builders/identity';
import { FakeTransaction } from '../../../support/fakes/shared-fakes';
import { anActor } from '../../../support/builders';

/** Identity's use cases hand the runner's transaction to the writes that must commit together (docs/architecture.md). */
describe('identity use cases: writes join the transaction they run in', () => {
  it('an administrator changing or removing a user writes in the transaction that counted the administrators', async () => {
    const { users, person, administration } = anIdentityWorld();
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    users.writes.length = 0;
    await administration.update(anActor().build(), 'editor-1', { name: 'Renamed' });
    await administration.remove(anActor().build(), 'editor-1');
    expect(users.writes.map(({ write }) => write)).to.deep.equal(['save', 'remove']);
    expect(users.writes.every(({ tx }) => tx instanceof FakeTransaction)).to.equal(true);
  });

  it('a deletion carried out anonymises the account in the transaction that completes the request', async () => {
    const { users, clock, person, deletion } = anIdentityWorld();
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    await deletion.request(anActor().withUser('editor-1').withRole('editor').build());
    clock.advance(31 * 24 * 3600_000);
    users.writes.length = 0;
    expect(await deletion.completeDue()).to.equal(1);
    expect(users.writes).to.have.length(1);
    expect(users.writes[0]!.tx).to.be.instanceOf(FakeTransaction);
  });
});
