import { expect } from 'chai';
import { AccountDeletion } from '../../../../src/application/identity/account-deletion';
import type { Role } from '../../../../src/domain/identity/role';
import { FakeDeletions, FakeSessions, FakeUsers, RecordingNotifier } from '../../../support/fakes/identity-fakes';
import { immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { anActor, aUser } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

function setup() {
  const users = new FakeUsers();
  const deletions = new FakeDeletions();
  const notifier = new RecordingNotifier();
  const clock = new ManualClock();
  const useCase = new AccountDeletion(deletions, users, new FakeSessions(), notifier, immediateTransactions, sequentialIds(), clock);
  const person = (id: string, role: Role) => users.add(aUser(id).withRole(role).createdAt(clock.now()).build());
  return { users, deletions, notifier, clock, useCase, person };
}

describe('AccountDeletion use case', () => {
  it('notifies administrators on request and on withdrawal', async () => {
    const { useCase, notifier, person } = await Promise.resolve(setup());
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    const editor = anActor().withUser('editor-1').withRole('editor').build();
    await useCase.request(editor);
    await useCase.withdraw(editor);
    expect(notifier.sent.map((m) => m.subject)).to.deep.equal(['Account deletion requested', 'Account deletion withdrawn']);
  });

  it('turns a concurrent change of the request into accountDeletionNotRecorded', async () => {
    const { useCase, deletions, person } = setup();
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    const editor = anActor().withUser('editor-1').withRole('editor').build();
    await useCase.request(editor);
    deletions.versions.concurrentWriteOnNextSave = true;
    expect(await codeOf(useCase.withdraw(editor))).to.equal('accountDeletionNotRecorded');
  });

  it('refuses the sole administrator, and accepts one of two', async () => {
    const { useCase, person } = setup();
    await person('admin-1', 'admin');
    expect(await codeOf(useCase.request(anActor().build()))).to.equal('accountDeletionSoleOwner');
    await person('admin-2', 'admin');
    await useCase.request(anActor().build());
  });

  it('completes only due requests, anonymising the account', async () => {
    const { useCase, users, clock, person } = setup();
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    await useCase.request(anActor().withUser('editor-1').withRole('editor').build());
    clock.advance(29 * 24 * 3600_000);
    expect(await useCase.completeDue()).to.equal(0);
    clock.advance(2 * 24 * 3600_000);
    expect(await useCase.completeDue()).to.equal(1);
    const gone = users.rows.get('editor-1')!;
    expect(gone).to.include({ name: 'Deleted user', isActive: false });
    expect(gone.email).to.match(/@deleted\.invalid$/);
  });
});
