import { expect } from 'chai';
import pino from 'pino';
import { api, apiAt, expectError } from '../../../support/http-client';
import { anOrganization, uniqueEmail } from '../../../support/builders';
import { aCustomerRow, aMember } from '../../../support/identity-fixtures';
import { testConfig, testDatabase, testDnsServer, testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const tokenOf = (acceptUrl: string) => decodeURIComponent(acceptUrl.split('/app/invitations/')[1]!);

async function invite(adminToken: string, body: Record<string, unknown>) {
  const created = await api('POST', '/api/invitations', { token: adminToken, body });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return created;
}

describe('invitations', () => {
  it('invites by e-mail; the invitee sees it, accepts once with the role and customer, and is signed in', async () => {
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const email = uniqueEmail('invitee');
    const created = await invite(org.token, { email, role: 'editor', customerId });
    // The test server has no SMTP server: the link comes back to the admin, and only in this answer.
    expect(created.body).to.include({ email, role: 'editor', customerId, mailed: false, invitedBy: org.user.id });
    expect(created.body.acceptUrl).to.match(/\/app\/invitations\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(created.body.acceptUrl);

    const list = await api('GET', '/api/invitations', { token: org.token });
    expect(list.body.items.map((i: { id: string }) => i.id)).to.deep.equal([created.body.id]);
    expect(list.body.items[0]).not.to.have.property('acceptUrl');

    const { database } = await testServer();
    const [stored] = await database.sql.query<{ token_hash: string }>(
      sql`SELECT token_hash FROM user_invitations WHERE id = ${created.body.id}`,
    );
    expect(stored!.token_hash).not.to.equal(token);
    expect(stored!.token_hash).to.have.length(43);

    const preview = await api('GET', `/api/invitations/accept/${token}`);
    expect(preview.status).to.equal(200);
    expect(preview.body).to.include({ email, role: 'editor' });
    expect(preview.body.organizationName).to.match(/^org /);
    expect(new Date(preview.body.expiresAt).getTime() - new Date(created.body.createdAt).getTime()).to.equal(7 * 24 * 3600 * 1000);

    const accepted = await api('POST', `/api/invitations/accept/${token}`, { body: { name: 'Grace Hopper', password: 'long enough pw' } });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    expect(accepted.body.user).to.include({ email, role: 'editor', customerId, name: 'Grace Hopper' });
    expect(accepted.headers.get('set-cookie')).to.match(/^wsm_session=[^;]+;.*HttpOnly/);
    const session = await api('GET', '/api/auth/get-session', { token: accepted.body.token });
    expect(session.body.user.email).to.equal(email);
    const signIn = await api('POST', '/api/auth/sign-in/email', { body: { email, password: 'long enough pw' } });
    expect(signIn.status).to.equal(200);

    expectError(await api('GET', `/api/invitations/accept/${token}`), 404, 'invitationNotFound');
    expectError(
      await api('POST', `/api/invitations/accept/${token}`, { body: { name: 'Again', password: 'long enough pw' } }),
      404,
      'invitationNotFound',
    );
    expect((await api('GET', '/api/invitations', { token: org.token })).body.items).to.deep.equal([]);

    const audit = await api('GET', '/api/audit-log?resourceType=invitation', { token: org.token });
    expect(audit.body.items.map((e: { action: string }) => e.action)).to.include.members(['created', 'accepted']);
    expect(JSON.stringify(audit.body)).not.to.include(stored!.token_hash);
  });

  it('revokes a pending invitation: its link no longer works (404 invitationNotFound), a second revoke is 404', async () => {
    const org = await anOrganization();
    const created = await invite(org.token, { email: uniqueEmail('revoked'), role: 'readonly' });
    expect((await api('DELETE', `/api/invitations/${created.body.id}`, { token: org.token })).status).to.equal(200);
    expectError(await api('GET', `/api/invitations/accept/${tokenOf(created.body.acceptUrl)}`), 404, 'invitationNotFound');
    expectError(await api('DELETE', `/api/invitations/${created.body.id}`, { token: org.token }), 404, 'invitationNotFound');
    expectError(await api('DELETE', '/api/invitations/not-a-uuid', { token: org.token }), 404, 'invitationNotFound');
  });

  it('answers 404 invitationNotFound for an expired link and an unknown one', async () => {
    const org = await anOrganization();
    const created = await invite(org.token, { email: uniqueEmail('late'), role: 'responder' });
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE user_invitations SET expires_at = created_at WHERE id = ${created.body.id}`);
    const token = tokenOf(created.body.acceptUrl);
    expectError(await api('GET', `/api/invitations/accept/${token}`), 404, 'invitationNotFound');
    expectError(
      await api('POST', `/api/invitations/accept/${token}`, { body: { name: 'x', password: 'long enough pw' } }),
      404,
      'invitationNotFound',
    );
    expectError(await api('GET', '/api/invitations/accept/unknown-token'), 404, 'invitationNotFound');
    expect((await api('GET', '/api/invitations', { token: org.token })).body.items).to.deep.equal([]);
  });

  it('refuses a duplicate: 409 invitationAlreadyPending, and 409 emailAlreadyRegistered for an existing user', async () => {
    const org = await anOrganization();
    const email = uniqueEmail('twice');
    await invite(org.token, { email, role: 'editor' });
    expectError(
      await api('POST', '/api/invitations', { token: org.token, body: { email, role: 'admin' } }),
      409,
      'invitationAlreadyPending',
    );
    const member = await aMember(org, 'readonly');
    expectError(
      await api('POST', '/api/invitations', { token: org.token, body: { email: member.email, role: 'editor' } }),
      409,
      'emailAlreadyRegistered',
    );
  });

  it('is for admins only (403 roleForbidden) and keeps organizations apart (404)', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    expectError(
      await api('POST', '/api/invitations', { token: editor.token, body: { email: uniqueEmail(), role: 'editor' } }),
      403,
      'roleForbidden',
    );
    expectError(await api('GET', '/api/invitations', { token: editor.token }), 403, 'roleForbidden');

    const other = await anOrganization('other');
    const theirs = await invite(other.token, { email: uniqueEmail('theirs'), role: 'editor' });
    expect((await api('GET', '/api/invitations', { token: org.token })).body.items).to.deep.equal([]);
    expectError(await api('DELETE', `/api/invitations/${theirs.body.id}`, { token: org.token }), 404, 'invitationNotFound');
    const foreignCustomer = await aCustomerRow(other.user.organizationId);
    expectError(
      await api('POST', '/api/invitations', {
        token: org.token,
        body: { email: uniqueEmail(), role: 'editor', customerId: foreignCustomer },
      }),
      400,
      'invalidCustomer',
    );
    expect((await api('GET', '/api/invitations', { token: other.token })).body.items).to.have.length(1);
  });

  /** The organization's own SMTP server, a real smtp-server on loopback (the target policy admits it). */
  describe('with a mail server', () => {
    const MAIL_HOST = 'mail.invite-fixture.com';
    const peer = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
    let app: RunningApplication;

    before(async () => {
      await peer.start();
      const dns = await testDnsServer();
      dns.set(MAIL_HOST, { A: ['127.0.0.1'] });
      const config = testConfig({ DNS_SERVERS: dns.server, CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8' });
      app = await startApplication(
        { ...config, databaseUrl: (await testDatabase()).url },
        { clock: testClock, jobs: false, checkWorker: false, logger: pino({ level: 'silent' }) },
      );
    });
    after(async () => {
      await app?.stop();
      await peer.stop();
    });

    it('e-mails the link (the answer then has no acceptUrl), and the mailed link works', async () => {
      const org = await anOrganization('mailed');
      const smtp = await apiAt(app.url, 'PATCH', '/api/organization/smtp', {
        token: org.token,
        body: { host: MAIL_HOST, port: peer.port, security: 'none', username: 'user', password: 'secret', fromAddress: 'noc@example.com' },
      });
      expect(smtp.status, JSON.stringify(smtp.body)).to.equal(200);
      const email = uniqueEmail('mailed');
      const created = await apiAt(app.url, 'POST', '/api/invitations', { token: org.token, body: { email, role: 'readonly' } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.include({ mailed: true, acceptUrl: null });
      const mail = peer.messages.find((m) => m.to.includes(email));
      expect(mail, 'the invitation e-mail').to.exist;
      const token = /\/app\/invitations\/([A-Za-z0-9_-]{43})/.exec(mail!.raw)?.[1];
      expect(token, mail!.raw).to.be.a('string');
      const accepted = await apiAt(app.url, 'POST', `/api/invitations/accept/${token}`, {
        body: { name: 'Mailed', password: 'long enough pw' },
      });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      expect(accepted.body.user).to.include({ email, role: 'readonly' });
    });
  });
});
