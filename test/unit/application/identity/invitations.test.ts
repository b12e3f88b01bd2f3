import { expect } from 'chai';
import { INVITATION_LIFETIME_MS } from '../../../../src/domain/identity/invitation';
import { anActor, aUser } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';
import { plainSecrets } from '../../../support/fakes/identity-fakes';
import { anIdentityWorld } from '../../../support/builders/identity';

const BASE = 'https://monitor.test';

function anInvitingWorld() {
  const world = anIdentityWorld({ now: '2026-06-01T12:00:00Z', customers: [{ id: 10, organizationId: 1 }], publicBaseUrl: BASE });
  const admin = anActor().build();
  /** The token the invitee got: the last segment of the link in the e-mail (or in acceptUrl). */
  const tokenOf = (link: string) => decodeURIComponent(link.split('/').pop()!);
  const linkIn = (text: string) => text.match(/https:\/\/\S+/)![0];
  return { ...world, use: world.invitationsUseCase, admin, tokenOf, linkIn };
}

describe('Invitations (use case)', () => {
  it('mails the link, lets the invitee accept it once, and then it works no more', async () => {
    const { use, admin, mailer, users, sessions, audit, invitations, tokenOf, linkIn } = anInvitingWorld();
    const created = await use.create(admin, { email: ' New.Person@Example.test ', role: 'editor', customerId: 10 });
    expect(created).to.deep.include({ mailed: true, acceptUrl: null });
    expect(mailer.sent).to.have.length(1);
    expect(mailer.sent[0]).to.include({ organizationId: 1, to: 'new.person@example.test', subject: 'You are invited to Acme' });
    const token = tokenOf(linkIn(mailer.sent[0]!.text));
    // Only the digest is stored.
    expect([...invitations.rows.values()][0]!.tokenHash).to.equal(plainSecrets.hash(token));

    expect(await use.preview(token)).to.deep.include({ organizationName: 'Acme', email: 'new.person@example.test', role: 'editor' });
    const accepted = await use.accept(token, { name: 'New Person', password: 'a long passphrase' });
    expect(accepted.user).to.include({ email: 'new.person@example.test', role: 'editor', customerId: 10, organizationId: 1 });
    expect(users.rows.get(accepted.user.id)?.passwordHash).to.equal('hashed:a long passphrase');
    expect(sessions.rows.get(accepted.session.id)?.userId).to.equal(accepted.user.id);
    expect(audit.map((e) => [e.resourceType, e.action, e.userId])).to.deep.equal([['invitation', 'accepted', accepted.user.id]]);

    // Single use: the same link again (preview or accept) is as unknown as a wrong one; no second user.
    expect(await codeOf(use.preview(token))).to.equal('invitationNotFound');
    expect(await codeOf(use.accept(token, { name: 'Again', password: 'another passphrase' }))).to.equal('invitationNotFound');
    expect(users.rows.size).to.equal(1);
    expect(await use.list(admin)).to.deep.equal([]);
  });

  it('a link expires after seven days: neither shown nor accepted, and the address may be invited again', async () => {
    const { use, admin, clock, users, mailer, tokenOf, linkIn } = anInvitingWorld();
    await use.create(admin, { email: 'late@example.test', role: 'readonly' });
    const token = tokenOf(linkIn(mailer.sent[0]!.text));
    clock.advance(INVITATION_LIFETIME_MS - 1_000);
    expect((await use.preview(token)).email).to.equal('late@example.test');
    expect(await codeOf(use.create(admin, { email: 'late@example.test', role: 'readonly' }))).to.equal('invitationAlreadyPending');
    clock.advance(1_000);
    expect(await codeOf(use.preview(token))).to.equal('invitationNotFound');
    expect(await codeOf(use.accept(token, { name: 'Late', password: 'a long passphrase' }))).to.equal('invitationNotFound');
    expect(users.rows.size).to.equal(0);
    expect(await use.list(admin)).to.deep.equal([]);
    const again = await use.create(admin, { email: 'late@example.test', role: 'readonly' });
    expect(again.mailed).to.equal(true);
  });

  it('when the e-mail cannot be sent (refused or failing), the invitation stands and the admin gets the link', async () => {
    for (const outcome of ['refused', 'throws'] as const) {
      const { use, admin, mailer, tokenOf } = anInvitingWorld();
      mailer.outcome = outcome;
      const created = await use.create(admin, { email: `${outcome}@example.test`, role: 'responder' });
      expect(created.mailed, outcome).to.equal(false);
      expect(created.acceptUrl, outcome).to.match(new RegExp(`^${BASE}/app/invitations/`));
      expect(mailer.sent).to.deep.equal([]);
      expect((await use.list(admin)).map((i) => i.email)).to.deep.equal([`${outcome}@example.test`]);
      // The link handed over works like the mailed one.
      const accepted = await use.accept(tokenOf(created.acceptUrl!), { name: 'Pat', password: 'a long passphrase' });
      expect(accepted.user.role).to.equal('responder');
    }
  });

  it('refuses non-admins, customers of another organization, registered addresses; a revoked link is dead', async () => {
    const { use, admin, users, mailer, tokenOf, linkIn } = anInvitingWorld();
    expect(await codeOf(use.create(anActor().withRole('editor').build(), { email: 'x@example.test', role: 'editor' }))).to.equal(
      'roleForbidden',
    );
    expect(await codeOf(use.create(admin, { email: 'x@example.test', role: 'editor', customerId: 99 }))).to.equal('invalidCustomer');
    await users.add(aUser('taken').with({ email: 'taken@example.test' }).build());
    expect(await codeOf(use.create(admin, { email: 'Taken@example.test', role: 'editor' }))).to.equal('emailAlreadyRegistered');
    const created = await use.create(admin, { email: 'gone@example.test', role: 'editor' });
    await use.revoke(admin, created.invitation.id);
    expect(await codeOf(use.revoke(admin, created.invitation.id))).to.equal('invitationNotFound');
    expect(await codeOf(use.preview(tokenOf(linkIn(mailer.sent.at(-1)!.text))))).to.equal('invitationNotFound');
    expect(mailer.sent).to.have.length(1);
  });
});
