import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization, uniqueEmail } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { setIncidentManagement } from '../../../support/im-fixtures';

describe('auth: sign-up, sign-in, sessions', () => {
  it('signs up an organization and its first admin, whose token opens get-session', async () => {
    const org = await anOrganization();
    expect(org.token).to.be.a('string').with.length.greaterThan(30);
    expect(org.user).to.include({ role: 'admin', isActive: true, email: org.email });

    const session = await api('GET', '/api/auth/get-session', { token: org.token });
    expect(session.status).to.equal(200);
    expect(session.body.session).to.include({ userId: org.user.id, token: org.token });
    expect(Date.parse(session.body.session.expiresAt)).to.be.greaterThan(Date.now());
    expect(session.body.user).to.include({
      id: org.user.id,
      name: 'Ada Lovelace',
      firstName: 'Ada',
      lastName: 'Lovelace',
      organizationId: org.user.organizationId,
      isActive: true,
      organizationStatus: 'active',
    });
    expect(session.body.user.createdAt).to.match(/Z$/);
  });

  it('refuses a second account with the same email', async () => {
    const org = await anOrganization();
    const again = await api('POST', '/api/auth/sign-up/email', {
      body: { name: 'X', email: org.email.toUpperCase(), password: 'another password', organizationName: 'Other' },
    });
    expectError(again, 409, 'emailAlreadyRegistered');
  });

  it('signs in with the password, sets an HttpOnly cookie that authenticates, and signs out', async () => {
    const org = await anOrganization();
    const signIn = await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: org.password } });
    expect(signIn.status).to.equal(200);
    expect(signIn.body.user.id).to.equal(org.user.id);
    const setCookie = signIn.headers.get('set-cookie') ?? '';
    expect(setCookie)
      .to.match(/wsm_session=/)
      .and.match(/HttpOnly/i);
    const cookie = setCookie.split(';')[0]!;

    const viaCookie = await api('GET', '/api/auth/get-session', { cookie });
    expect(viaCookie.status).to.equal(200);
    expect(viaCookie.body.user.id).to.equal(org.user.id);

    const out = await api('POST', '/api/auth/sign-out', { token: signIn.body.token });
    expect(out.status).to.equal(200);
    expectError(await api('GET', '/api/auth/get-session', { token: signIn.body.token }), 401, 'unauthorized');
  });

  it('sets the readable signed-in marker beside the session cookie at sign-in, and clears both at sign-out', async () => {
    const org = await anOrganization();
    const signIn = await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: org.password } });
    const set = signIn.headers.getSetCookie();
    expect(set[0]).to.match(/^wsm_session=[^;]+;.*HttpOnly/);
    const marker = set.find((line) => line.startsWith('wsm_signed_in='));
    expect(marker).to.match(/^wsm_signed_in=1; Max-Age=\d+; Path=\/;/);
    expect(marker).not.to.match(/HttpOnly/i);

    const out = await api('POST', '/api/auth/sign-out', { cookie: set[0]!.split(';')[0]! });
    expect(out.status).to.equal(200);
    const cleared = out.headers.getSetCookie();
    expect(cleared.find((line) => line.startsWith('wsm_session=;'))).to.match(/Expires=Thu, 01 Jan 1970/);
    expect(cleared.find((line) => line.startsWith('wsm_signed_in=;'))).to.match(/Expires=Thu, 01 Jan 1970/);
  });

  it('says in the session whether the caller may use incident management, as the IM gate would answer', async () => {
    const org = await anOrganization();
    const reader = await aMember(org, 'readonly');
    const imOf = async (token: string) => (await api('GET', '/api/auth/get-session', { token })).body.incidentManagement;
    const gate = async (token: string) => {
      const answer = await api('GET', '/api/im/on-call', { token });
      return answer.status === 200 ? 'answered' : answer.body.data.code;
    };
    expect([await imOf(org.token), await gate(org.token)]).to.deep.equal(['notEnabled', 'imNotEnabled']);
    expect([await imOf(reader.token), await gate(reader.token)]).to.deep.equal(['accessDenied', 'imAccessDenied']);
    await setIncidentManagement(org.user.organizationId, true);
    expect([await imOf(org.token), await gate(org.token)]).to.deep.equal(['enabled', 'answered']);
    expect([await imOf(reader.token), await gate(reader.token)]).to.deep.equal(['accessDenied', 'imAccessDenied']);
  });

  it('answers invalidCredentials for a wrong password and for an unknown email alike', async () => {
    const org = await anOrganization();
    expectError(
      await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: 'wrong password' } }),
      401,
      'invalidCredentials',
    );
    expectError(
      await api('POST', '/api/auth/sign-in/email', { body: { email: uniqueEmail(), password: 'whatever' } }),
      401,
      'invalidCredentials',
    );
  });

  it('answers 401 in the envelope for missing and invalid credentials', async () => {
    expectError(await api('GET', '/api/auth/get-session'), 401, 'unauthorized');
    expectError(await api('GET', '/api/auth/get-session', { token: 'not-a-real-token' }), 401, 'unauthorized');
    expectError(await api('GET', '/api/auth/get-session', { token: 'wsm_unknown' }), 401, 'unauthorized');
  });

  it('answers malformed JSON with 400 invalidRequestBody and schema failures with validationFailed', async () => {
    const malformed = await api('POST', '/api/auth/sign-in/email', {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expectError(malformed, 400, 'invalidRequestBody');
    const invalid = await api('POST', '/api/auth/sign-up/email', {
      body: { name: 'x', email: 'not-an-email', password: 'short', organizationName: 'o' },
    });
    expectError(invalid, 400, 'validationFailed');
    expect(invalid.body.data.issues.map((i: { path: string[] }) => i.path[0])).to.include.members(['email', 'password']);
  });

  it('answers unknown routes with 404 in the envelope, without a code', async () => {
    const response = await api('GET', '/api/no-such-thing');
    expectError(response, 404);
    expect(response.body.url).to.equal('/api/no-such-thing');
  });
});
