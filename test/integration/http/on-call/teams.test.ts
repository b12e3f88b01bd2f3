import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { aMember } from '../../../support/identity-fixtures';

const TEAM_FIELDS = ['id', 'name', 'description', 'members', 'createdAt', 'updatedAt'];

describe('IM teams API (/api/im/teams)', () => {
  let set: CallerSet;
  let responderId: string;
  before(async () => {
    set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const users = await api('GET', '/api/users', { token: set.admin });
    responderId = users.body.items.find((u: { role: string }) => u.role === 'responder').id;
  });

  it('creates a team with members and imRoles, lists it and reads it back', async () => {
    const created = await api('POST', '/api/im/teams', {
      token: set.admin,
      body: { name: 'Platform', members: [{ userId: set.org.user.id, imRole: 'admin' }, { userId: responderId }] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.have.all.keys(TEAM_FIELDS);
    expect(created.body.members).to.have.deep.members([
      { userId: set.org.user.id, imRole: 'admin' },
      { userId: responderId, imRole: 'member' },
    ]);
    const read = await api('GET', `/api/im/teams/${created.body.id}`, { token: set.responder });
    expect(read.body).to.deep.equal(created.body);
    const list = await api('GET', '/api/im/teams', { token: set.editor });
    expect(list.body.items.map((t: { id: string }) => t.id)).to.include(created.body.id);
  });

  it('answers imTeamWriteDenied to a plain member, and lets a team admin who is not an org admin manage membership', async () => {
    const teamAdmin = await aMember(set.org, 'editor');
    const team = (
      await api('POST', '/api/im/teams', {
        token: set.admin,
        body: {
          name: 'Payments',
          members: [
            { userId: teamAdmin.id, imRole: 'admin' },
            { userId: responderId, imRole: 'member' },
          ],
        },
      })
    ).body;
    expectError(
      await api('PATCH', `/api/im/teams/${team.id}`, { token: set.responder, body: { name: 'Mine now' } }),
      403,
      'imTeamWriteDenied',
    );
    expectError(
      await api('PUT', `/api/im/teams/${team.id}/members/${responderId}`, { token: set.responder, body: { imRole: 'admin' } }),
      403,
      'imTeamWriteDenied',
    );
    expectError(await api('DELETE', `/api/im/teams/${team.id}`, { token: set.editor }), 403, 'imTeamWriteDenied');
    expectError(await api('POST', '/api/im/teams', { token: teamAdmin.token, body: { name: 'Not allowed' } }), 403, 'imTeamWriteDenied');

    const promoted = await api('PUT', `/api/im/teams/${team.id}/members/${responderId}`, {
      token: teamAdmin.token,
      body: { imRole: 'admin' },
    });
    expect(promoted.status, JSON.stringify(promoted.body)).to.equal(200);
    expect(promoted.body.members).to.deep.include({ userId: responderId, imRole: 'admin' });
    const renamed = await api('PATCH', `/api/im/teams/${team.id}`, { token: set.responder, body: { name: 'Payments core' } });
    expect(renamed.body.name).to.equal('Payments core');
    const removed = await api('DELETE', `/api/im/teams/${team.id}/members/${teamAdmin.id}`, { token: set.responder });
    expect(removed.body.members).to.deep.equal([{ userId: responderId, imRole: 'admin' }]);
    expect((await api('GET', `/api/im/teams/${team.id}`, { token: set.admin })).body.name).to.equal('Payments core');
  });

  it("answers userNotFound for a member outside the organization, and imTeamNotFound for another organization's team", async () => {
    const stranger = await aCallerSet();
    await setIncidentManagement(stranger.organizationId, true);
    const strangerTeam = (await api('POST', '/api/im/teams', { token: stranger.admin, body: { name: 'Theirs' } })).body;
    const outsider = await api('POST', '/api/im/teams', {
      token: set.admin,
      body: { name: 'X', members: [{ userId: stranger.org.user.id, imRole: 'member' }] },
    });
    expectError(outsider, 404, 'userNotFound');
    expect(outsider.body.data.userIds).to.deep.equal([stranger.org.user.id]);
    expectError(await api('GET', `/api/im/teams/${strangerTeam.id}`, { token: set.admin }), 404, 'imTeamNotFound');
    expectError(await api('DELETE', `/api/im/teams/${strangerTeam.id}`, { token: set.admin }), 404, 'imTeamNotFound');
    expectError(await api('GET', '/api/im/teams/not-a-uuid', { token: set.admin }), 404, 'imTeamNotFound');
    expect((await api('GET', `/api/im/teams/${strangerTeam.id}`, { token: stranger.admin })).status).to.equal(200);
  });

  it('deletes a team', async () => {
    const team = (await api('POST', '/api/im/teams', { token: set.admin, body: { name: 'Short-lived' } })).body;
    expect((await api('DELETE', `/api/im/teams/${team.id}`, { token: set.admin })).status).to.equal(204);
    expectError(await api('GET', `/api/im/teams/${team.id}`, { token: set.admin }), 404, 'imTeamNotFound');
  });

  it('keeps customer-scoped tokens out with customerScopedTokenForbidden', async () => {
    expectError(await api('GET', '/api/im/teams', { token: set.customerToken }), 403, 'customerScopedTokenForbidden');
  });
});
