import { expect } from 'chai';
import { anIdentityWorld } from '../../../support/builders/identity';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

function aDeletionWorld() {
  const world = anIdentityWorld();
  return { ...world, useCase: world.deletion };
}

describe('AccountDeletion use case', () => {
  it('notifies administrators on request and on withdrawal', async () => {
    const { useCase, notifier, person } = await Promise.resolve(aDeletionWorld());
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    const editor = anActor().withUser('editor-1').withRole('editor').build();
    await useCase.request(editor);
    await useCase.withdraw(editor);
    expect(notifier.sent.map((m) => m.subject)).to.deep.equal(['Account deletion requested', 'Account deletion withdrawn']);
  });

  it('turns a concurrent change of the request into accountDeletionNotRecorded', async () => {
    const { useCase, deletions, person } = aDeletionWorld();
    await person('admin-1', 'admin');
    await person('editor-1', 'editor');
    const editor = anActor().withUser('editor-1').withRole('editor').build();
    await useCase.request(editor);
    deletions.versions.concurrentWriteOnNextSave = true;
    expect(await codeOf(useCase.withdraw(editor))).to.equal('accountDeletionNotRecorded');
  });

  it('refuses the sole administrator, and accepts one of two', async () => {
    const { useCase, person } = aDeletionWorld();
    await person('admin-1', 'admin');
    expect(await codeOf(useCase.request(anActor().build()))).to.equal('accountDeletionSoleOwner');
    await person('admin-2', 'admin');
    await useCase.request(anActor().build());
  });

  it('completes only due requests, anonymising the account', async () => {
    const { useCase, users, clock, person } = aDeletionWorld();
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
