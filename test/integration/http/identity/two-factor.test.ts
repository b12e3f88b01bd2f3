import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMember, anOrgToken, signIn, totpCode, withTwoFactor, PASSWORD } from '../../../support/identity-fixtures';
import { testClock } from '../../../support/test-clock';

const MINUTE = 60_000;

describe('two-step verification', () => {
  it('enables TOTP with backup codes; sign-in then needs the second factor', async () => {
    const org = await anOrganization();
    const { totpURI, backupCodes } = await withTwoFactor(org.token);
    expect(totpURI).to.match(/^otpauth:\/\/totp\//);
    expect(backupCodes).to.have.length(10);

    const first = await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: PASSWORD } });
    expect(first.status).to.equal(200);
    expect(first.body).to.deep.equal({ twoFactorRedirect: true });
    const challenge = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(challenge).to.match(/^wsm_two_factor=/);

    expectError(
      await api('POST', '/api/auth/two-factor/verify-totp', { body: { code: totpCode(totpURI) } }),
      401,
      'twoFactorChallengeMissing',
    );
    const done = await api('POST', '/api/auth/two-factor/verify-totp', { cookie: challenge, body: { code: totpCode(totpURI) } });
    expect(done.status).to.equal(200);
    expect(done.body.user.twoFactorEnabled).to.equal(true);
    expect((await api('GET', '/api/auth/get-session', { token: done.body.token })).status).to.equal(200);

    const again = await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: PASSWORD } });
    const backup = await api('POST', '/api/auth/two-factor/verify-totp', {
      cookie: (again.headers.get('set-cookie') ?? '').split(';')[0]!,
      body: { code: backupCodes[0] },
    });
    expect(backup.status).to.equal(200);
  });

  it('refuses a second enrolment once it is on (409 twoFactorAlreadyEnabled) and a code from a user without it (400 twoFactorNotEnabled)', async () => {
    const org = await anOrganization();
    const plain = await aMember(org, 'editor');
    // No enrolment begun: there is no secret to check a code against, for a step-up or a sign-in.
    expectError(
      await api('POST', '/api/auth/two-factor/verify-totp', { token: plain.token, body: { code: '123456' } }),
      400,
      'twoFactorNotEnabled',
    );
    const { totpURI } = await withTwoFactor(org.token);
    const again = await api('POST', '/api/auth/two-factor/enable', { token: org.token, body: { password: PASSWORD } });
    expectError(again, 409, 'twoFactorAlreadyEnabled');
    // The enrolment in force is untouched: its codes still pass.
    expect(
      (await api('POST', '/api/auth/two-factor/verify-totp', { token: org.token, body: { code: totpCode(totpURI) } })).status,
    ).to.equal(200);
  });

  it('token mutations need a step-up within 5 minutes (mfa_step_up_required)', async () => {
    const org = await anOrganization();
    const { totpURI } = await withTwoFactor(org.token);
    expect((await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'fresh' } })).status).to.equal(201);

    testClock.advance(6 * MINUTE);
    const stale = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'stale' } });
    expectError(stale, 403, 'mfa_step_up_required');
    const list = await api('GET', '/api/organization/tokens', { token: org.token });
    expectError(
      await api('DELETE', `/api/organization/tokens/${list.body.items[0].id}`, { token: org.token }),
      403,
      'mfa_step_up_required',
    );

    const stepUp = await api('POST', '/api/auth/two-factor/verify-totp', { token: org.token, body: { code: totpCode(totpURI) } });
    expect(stepUp.status).to.equal(200);
    expect((await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'after step-up' } })).status).to.equal(201);
  });

  it('locks verification for 15 minutes after 5 wrong codes (429 mfa_step_up_locked)', async () => {
    const org = await anOrganization();
    const { totpURI } = await withTwoFactor(org.token);
    for (let i = 0; i < 4; i++) {
      const wrong = await api('POST', '/api/auth/two-factor/verify-totp', { token: org.token, body: { code: '000000' } });
      expectError(wrong, 400, 'invalidTwoFactorCode');
      expect(wrong.body.data.attemptsRemaining).to.equal(4 - i);
    }
    const fifth = await api('POST', '/api/auth/two-factor/verify-totp', { token: org.token, body: { code: '000000' } });
    expectError(fifth, 429, 'mfa_step_up_locked');
    expect(fifth.body.data.retryAfterSeconds).to.be.within(899, 900);
    expect(fifth.headers.get('retry-after')).to.equal(String(fifth.body.data.retryAfter));

    const evenRight = await api('POST', '/api/auth/two-factor/verify-totp', { token: org.token, body: { code: totpCode(totpURI) } });
    expectError(evenRight, 429, 'mfa_step_up_locked');
    testClock.advance(15 * MINUTE + 1000);
    expect(
      (await api('POST', '/api/auth/two-factor/verify-totp', { token: org.token, body: { code: totpCode(totpURI) } })).status,
    ).to.equal(200);
  });

  it('enforces the organization flags: unenrolled callers of those roles get mfa_enrollment_required', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const readonly = await aMember(org, 'readonly');
    const editorToken = await anOrgToken(editor.token);
    const set = await api('PATCH', '/api/organization', { token: org.token, body: { requireMfaEditors: true } });
    expect(set.body.requireMfaEditors).to.equal(true);

    expectError(await api('GET', '/api/users', { token: editor.token }), 403, 'mfa_enrollment_required');
    expectError(await api('GET', '/api/users', { token: editorToken }), 403, 'mfa_enrollment_required');
    expect((await api('GET', '/api/users', { token: readonly.token })).status).to.equal(200);
    expect((await api('GET', '/api/auth/get-session', { token: editor.token })).status).to.equal(200);

    await withTwoFactor(editor.token);
    expect((await api('GET', '/api/users', { token: editor.token })).status).to.equal(200);
  });

  it('lets only signed-in users set the requireMfa* flags (nonUserSessionForbidden)', async () => {
    const org = await anOrganization();
    const token = await anOrgToken(org.token);
    expectError(await api('PATCH', '/api/organization', { token, body: { requireMfaAdmins: true } }), 403, 'nonUserSessionForbidden');
    expect((await api('PATCH', '/api/organization', { token, body: { name: 'Renamed by token' } })).body.name).to.equal('Renamed by token');
  });

  it('throttles password guessing per account (429 rateLimited with retryAfter)', async () => {
    const org = await anOrganization();
    let last;
    for (let i = 0; i < 11; i++) last = await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: 'wrong' } });
    expectError(last!, 429, 'rateLimited');
    expect(last!.body.data.retryAfter).to.be.within(1, 60);
    expect(last!.headers.get('retry-after')).to.equal(String(last!.body.data.retryAfter));
    testClock.advance(61_000);
    expect((await signIn(org.email)).token).to.be.a('string');
  });
});
