import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';

const POLICY_FIELDS = ['id', 'name', 'description', 'levels', 'repeatCount', 'createdAt', 'updatedAt'];

describe('Escalation policies API (/api/escalation-config)', () => {
  let set: CallerSet;
  let team: { id: string };
  let schedule: { id: string };
  const policy = () => ({
    name: 'Default',
    levels: [
      { delayMinutes: 5, targets: [{ type: 'user', id: set.org.user.id }] },
      {
        delayMinutes: 15,
        targets: [
          { type: 'schedule', id: schedule.id },
          { type: 'team', id: team.id },
        ],
      },
    ],
    repeatCount: 2,
  });

  before(async () => {
    set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    team = (await api('POST', '/api/im/teams', { token: set.admin, body: { name: 'SRE' } })).body;
    schedule = (await api('POST', '/api/im/schedules', { token: set.admin, body: { teamId: team.id, name: 'Primary' } })).body;
  });

  it('creates a policy, reads it back, lists it, changes its levels and deletes it', async () => {
    const created = await api('POST', '/api/escalation-config', { token: set.editor, body: policy() });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.have.all.keys(POLICY_FIELDS);
    expect(created.body).to.deep.include({ name: 'Default', description: null, repeatCount: 2, levels: policy().levels });
    expect((await api('GET', `/api/escalation-config/${created.body.id}`, { token: set.responder })).body).to.deep.equal(created.body);
    expect((await api('GET', '/api/escalation-config', { token: set.orgToken })).body.items.map((p: { id: string }) => p.id)).to.include(
      created.body.id,
    );

    const changed = await api('PATCH', `/api/escalation-config/${created.body.id}`, {
      token: set.admin,
      body: { levels: [{ delayMinutes: 1, targets: [{ type: 'team', id: team.id }] }], repeatCount: 0 },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.deep.include({ repeatCount: 0, levels: [{ delayMinutes: 1, targets: [{ type: 'team', id: team.id }] }] });
    expect((await api('GET', `/api/escalation-config/${created.body.id}`, { token: set.admin })).body.levels).to.have.length(1);

    expect((await api('DELETE', `/api/escalation-config/${created.body.id}`, { token: set.admin })).status).to.equal(204);
    expectError(await api('GET', `/api/escalation-config/${created.body.id}`, { token: set.admin }), 404, 'escalationPolicyNotFound');
  });

  it('answers userNotFound, imScheduleNotFound and imTeamNotFound for targets outside the organization', async () => {
    const stranger = await aCallerSet();
    await setIncidentManagement(stranger.organizationId, true);
    const theirTeam = (await api('POST', '/api/im/teams', { token: stranger.admin, body: { name: 'Theirs' } })).body;
    const theirSchedule = (await api('POST', '/api/im/schedules', { token: stranger.admin, body: { teamId: theirTeam.id, name: 'S' } }))
      .body;
    const withTarget = (target: { type: string; id: string }) => ({ name: 'P', levels: [{ delayMinutes: 5, targets: [target] }] });
    expectError(
      await api('POST', '/api/escalation-config', { token: set.admin, body: withTarget({ type: 'user', id: stranger.org.user.id }) }),
      404,
      'userNotFound',
    );
    const missingSchedule = await api('POST', '/api/escalation-config', {
      token: set.admin,
      body: withTarget({ type: 'schedule', id: theirSchedule.id }),
    });
    expectError(missingSchedule, 404, 'imScheduleNotFound');
    expect(missingSchedule.body.data.scheduleIds).to.deep.equal([theirSchedule.id]);
    expectError(
      await api('POST', '/api/escalation-config', { token: set.admin, body: withTarget({ type: 'team', id: theirTeam.id }) }),
      404,
      'imTeamNotFound',
    );
    const theirs = (
      await api('POST', '/api/escalation-config', { token: stranger.admin, body: withTarget({ type: 'team', id: theirTeam.id }) })
    ).body;
    expectError(await api('GET', `/api/escalation-config/${theirs.id}`, { token: set.admin }), 404, 'escalationPolicyNotFound');
    expectError(
      await api('PATCH', `/api/escalation-config/${theirs.id}`, { token: set.admin, body: { name: 'x' } }),
      404,
      'escalationPolicyNotFound',
    );
  });

  it("refuses responders' writes with roleForbidden and bad shapes with validationFailed", async () => {
    expectError(await api('POST', '/api/escalation-config', { token: set.responder, body: policy() }), 403, 'roleForbidden');
    expectError(
      await api('POST', '/api/escalation-config', { token: set.admin, body: { ...policy(), levels: [] } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/escalation-config', { token: set.admin, body: { ...policy(), repeatCount: 10 } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/escalation-config', { token: set.admin, body: { ...policy(), extra: true } }),
      400,
      'validationFailed',
    );
  });

  it('answers customerScopedTokenForbidden to customer-scoped tokens, as the token rules say', async () => {
    expectError(await api('GET', '/api/escalation-config', { token: set.customerToken }), 403, 'customerScopedTokenForbidden');
    expectError(
      await api('POST', '/api/escalation-config', { token: set.customerToken, body: policy() }),
      403,
      'customerScopedTokenForbidden',
    );
  });
});
