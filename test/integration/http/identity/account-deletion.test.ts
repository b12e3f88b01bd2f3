import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMember, signIn } from '../../../support/identity-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { AccountDeletion } from '../../../../src/application/identity/account-deletion';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { ACCOUNT_DELETION_REPOSITORY, type AccountDeletionRepository } from '../../../../src/application/identity/ports';
import sinon from 'sinon';

const DAY = 24 * 60 * 60_000;

async function outbox(organizationId: number): Promise<string[]> {
  const { database } = await testServer();
  const rows = await database.sql.query<{ subject: string }>(
    sql`SELECT subject FROM notification_outbox WHERE organization_id = ${organizationId} ORDER BY id`,
  );
  return rows.map((r) => r.subject);
}

describe('account deletion', () => {
  it('is requested for 30 days, withdrawable, and administrators are notified both times', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const requested = await api('POST', '/api/account/deletion-request', { token: editor.token });
    expect(requested.status).to.equal(202);
    expect(requested.body.status).to.equal('requested');
    expect(Date.parse(requested.body.effectiveAt) - Date.parse(requested.body.requestedAt)).to.equal(30 * DAY);
    const again = await api('POST', '/api/account/deletion-request', { token: editor.token });
    expect(again.body.id).to.equal(requested.body.id);

    const withdrawn = await api('DELETE', '/api/account/deletion-request', { token: editor.token });
    expect(withdrawn.body.status).to.equal('withdrawn');
    expectError(await api('DELETE', '/api/account/deletion-request', { token: editor.token }), 404, 'accountDeletionNotRequested');
    expect(await outbox(org.user.organizationId)).to.deep.equal(['Account deletion requested', 'Account deletion withdrawn']);
  });

  it('refuses the last administrator (409 accountDeletionSoleOwner with data.organizationId)', async () => {
    const org = await anOrganization();
    const response = await api('POST', '/api/account/deletion-request', { token: org.token });
    expectError(response, 409, 'accountDeletionSoleOwner');
    expect(response.body.data.organizationId).to.equal(org.user.organizationId);
  });

  it('lets administrators act for users of their organization only (accountDeletionUserNotFound)', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const other = await anOrganization('other');
    expect((await api('POST', `/api/users/${editor.id}/deletion-request`, { token: org.token })).status).to.equal(202);
    expect((await api('GET', `/api/users/${editor.id}/deletion-request`, { token: org.token })).body.request.status).to.equal('requested');
    expectError(
      await api('POST', `/api/users/${other.user.id}/deletion-request`, { token: org.token }),
      404,
      'accountDeletionUserNotFound',
    );
    expectError(
      await api('POST', `/api/users/${org.user.id}/deletion-request`, { token: editor.token }),
      404,
      'accountDeletionUserNotFound',
    );
  });

  it('records exactly one of several concurrent withdrawals', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    await api('POST', '/api/account/deletion-request', { token: editor.token });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api('DELETE', '/api/account/deletion-request', { token: editor.token })),
    );
    expect(answers.filter((a) => a.status === 200)).to.have.length(1);
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect(lost.body.data.code).to.be.oneOf(['accountDeletionNotRecorded', 'accountDeletionNotRequested']);
      expect(lost.status).to.equal(lost.body.data.code === 'accountDeletionNotRecorded' ? 409 : 404);
    }
  });

  it('answers 409 accountDeletionNotRecorded when another writer changed the request between its read and the withdrawal', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    await api('POST', '/api/account/deletion-request', { token: editor.token });
    const app = await testServer();
    const requests = app.container.get<AccountDeletionRepository>(ACCOUNT_DELETION_REPOSITORY);
    const read = requests.findPendingForUser.bind(requests);
    // Another process writes the request right after this one read it (its version moves on).
    const stub = sinon.stub(requests, 'findPendingForUser').callsFake(async (userId: string) => {
      const request = await read(userId);
      await app.database.sql.query(sql`UPDATE account_deletion_requests SET version = version + 1 WHERE user_id = ${userId}`);
      return request;
    });
    try {
      const lost = await api('DELETE', '/api/account/deletion-request', { token: editor.token });
      expectError(lost, 409, 'accountDeletionNotRecorded');
    } finally {
      stub.restore();
    }
    // Nothing was recorded: the request is still pending, and a withdrawal now goes through.
    expect((await api('GET', '/api/account/deletion-request', { token: editor.token })).body.request.status).to.equal('requested');
    expect((await api('DELETE', '/api/account/deletion-request', { token: editor.token })).status).to.equal(200);
  });

  it('carries out due requests: the account is anonymised and can no longer sign in', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    await api('POST', '/api/account/deletion-request', { token: editor.token });
    testClock.advance(30 * DAY + 60_000);
    const { container } = await testServer();
    const done = await container.get(AccountDeletion).completeDue();
    expect(done).to.be.greaterThan(0);
    expectError(
      await api('POST', '/api/auth/sign-in/email', { body: { email: editor.email, password: 'correct horse battery' } }),
      401,
      'invalidCredentials',
    );
    const user = await api('GET', `/api/users/${editor.id}`, { token: (await signIn(org.email)).token });
    expect(user.body).to.include({ name: 'Deleted user', isActive: false });
  });
});
