import { expect } from 'chai';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { anActor } from '../../../support/builders';
import { smtpPasswordContext } from '../../../../src/application/notifications/update-organization-smtp';
import { fakeCipher } from '../../../support/fakes/monitoring-fakes';
import { harness } from './harness';

const admin = () => anActor().build();
const settings = {
  host: 'smtp.example.com',
  port: 2525,
  security: 'starttls' as const,
  username: 'user',
  password: 'pw',
  fromAddress: 'alerts@example.com',
};

describe('organization SMTP use cases', () => {
  it('vets the host, verifies against the vetted address with the name for TLS, then stores the password sealed', async () => {
    const h = harness();
    const stored = await h.updateSmtp.execute(admin(), settings);
    expect(h.policy.vetted).to.deep.equal(['smtp.example.com']);
    expect(h.verifier.probes).to.deep.equal([
      {
        hostname: 'smtp.example.com',
        address: '93.184.216.34',
        port: 2525,
        security: 'starttls',
        username: 'user',
        password: 'pw',
      },
    ]);
    expect(stored.passwordCiphertext).to.not.equal(null);
    expect(fakeCipher.decrypt(stored.passwordCiphertext!, smtpPasswordContext(1))).to.equal('pw');
    expect(stored.passwordCiphertext).to.include(smtpPasswordContext(1));
    expect(await h.getSmtp.execute(admin())).to.deep.equal(stored);
  });

  it("answers smtpHostNotPublic with the policy's reason, before connecting", async () => {
    const h = harness();
    await expectAppErrorAsync(() => h.updateSmtp.execute(admin(), { ...settings, host: 'mail.private-net.com' }), 'smtpHostNotPublic', {
      reason: 'nonPublicAddress',
    });
    expect(h.verifier.probes).to.deep.equal([]);
    expect(h.smtp.rows.size).to.equal(0);
  });

  it("answers smtpVerificationFailed with the verifier's reason and keeps the stored settings", async () => {
    const h = harness();
    const before = await h.updateSmtp.execute(admin(), settings);
    h.verifier.outcome = { ok: false, reason: 'authenticationFailed' };
    await expectAppErrorAsync(() => h.updateSmtp.execute(admin(), { password: 'wrong' }), 'smtpVerificationFailed', {
      reason: 'authenticationFailed',
    });
    expect(h.smtp.rows.get(1)).to.deep.equal(before);
  });

  it('verifies a change with the stored password when the change has none', async () => {
    const h = harness();
    await h.updateSmtp.execute(admin(), settings);
    h.clock.advance(60_000);
    const changed = await h.updateSmtp.execute(admin(), { fromAddress: 'noc@example.com' });
    expect(h.verifier.probes[1]).to.include({ username: 'user', password: 'pw' });
    expect(changed).to.include({ fromAddress: 'noc@example.com' });
    expect(changed.verifiedAt).to.deep.equal(h.clock.now());
  });

  it('is for organization administrators', async () => {
    const h = harness();
    await expectAppErrorAsync(() => h.updateSmtp.execute(anActor().withRole('editor').build(), settings), 'roleForbidden');
    await expectAppErrorAsync(() => h.updateSmtp.execute(anActor().forCustomer(10).build(), settings), 'roleForbidden');
    await expectAppErrorAsync(() => h.getSmtp.execute(anActor().withRole('editor').build()), 'roleForbidden');
  });

  it('answers smtpNotConfigured to read or remove settings that do not exist', async () => {
    const h = harness();
    await expectAppErrorAsync(() => h.getSmtp.execute(admin()), 'smtpNotConfigured');
    await expectAppErrorAsync(() => h.removeSmtp.execute(admin()), 'smtpNotConfigured');
    await h.updateSmtp.execute(admin(), settings);
    await h.removeSmtp.execute(admin());
    expect(h.smtp.rows.size).to.equal(0);
  });
});
