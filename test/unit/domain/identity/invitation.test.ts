import { expect } from 'chai';
import { INVITATION_LIFETIME_MS, acceptUrlOf, invitationExpiry, invitationMail } from '../../../../src/domain/identity/invitation';

describe('invitation (domain)', () => {
  it('expires seven days after it is made', () => {
    const now = new Date('2027-02-11T09:00:00Z');
    expect(INVITATION_LIFETIME_MS).to.equal(7 * 24 * 3600 * 1000);
    expect(invitationExpiry(now).toISOString()).to.equal('2027-02-18T09:00:00.000Z');
  });

  it("links to the console's invitation page under PUBLIC_BASE_URL, the token escaped", () => {
    expect(acceptUrlOf('https://monitor.example/', 'abc_-1')).to.equal('https://monitor.example/app/invitations/abc_-1');
    expect(acceptUrlOf('https://monitor.example', 'a/b')).to.equal('https://monitor.example/app/invitations/a%2Fb');
  });

  it('puts the organization, the link and the expiry in the e-mail', () => {
    const mail = invitationMail('Acme', 'https://x.example/app/invitations/t', new Date('2027-02-18T09:00:00Z'));
    expect(mail.subject).to.equal('You are invited to Acme');
    expect(mail.text).to.include('https://x.example/app/invitations/t').and.include('2027-02-18T09:00:00.000Z');
  });
});
