import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { testDatabase, testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { waitFor } from '../../../support/wait-for';
import { sql } from '../../../../src/infrastructure/persistence/sql';

async function aTeamRow(organizationId: number): Promise<string> {
  const { database } = await testServer();
  const id = randomUUID();
  await database.sql.query(
    sql`INSERT INTO im_teams (id, organization_id, name, created_at, updated_at) VALUES (${id}, ${organizationId}, 'Team', now(), now())`,
  );
  return id;
}

async function aPolicyRow(organizationId: number): Promise<string> {
  const { database } = await testServer();
  const id = randomUUID();
  await database.sql.query(
    sql`INSERT INTO escalation_policies (id, organization_id, name, repeat_count, created_at, updated_at) VALUES (${id}, ${organizationId}, 'Policy', 0, now(), now())`,
  );
  return id;
}

describe('IM incidents over HTTP', () => {
  let callers: CallerSet;
  let other: CallerSet;
  const create = (body: Record<string, unknown> = {}, token = callers.admin) =>
    api('POST', '/api/im/incidents', { token, body: { title: 'Checkout is down', ...body } });

  before(async () => {
    [callers, other] = await Promise.all([aCallerSet(), aCallerSet()]);
    await Promise.all([setIncidentManagement(callers.organizationId, true), setIncidentManagement(other.organizationId, true)]);
  });

  it('declares an incident with its references, then reads it back with its timeline', async () => {
    const teamId = await aTeamRow(callers.organizationId);
    const escalationPolicyId = await aPolicyRow(callers.organizationId);
    const created = await create(
      { severity: 'warning', teamId, escalationPolicyId, customerId: callers.customer.publicId },
      callers.responder,
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({
      title: 'Checkout is down',
      status: 'triggered',
      severity: 'warning',
      teamId,
      escalationPolicyId,
      customerId: callers.customer.id,
      snoozedUntil: null,
      occurrenceCount: 1,
      version: 1,
    });
    const read = await api('GET', `/api/im/incidents/${created.body.id}`, { token: callers.editor });
    expect(read.status).to.equal(200);
    expect(read.body.timeline.map((e: { kind: string }) => e.kind)).to.deep.equal(['triggered']);
    expect(read.body.timeline[0].details).to.include({ title: 'Checkout is down', origin: 'manual' });
  });

  it("refuses another organization's team, customer and policy ids (422)", async () => {
    const foreignTeam = await aTeamRow(other.organizationId);
    const foreignPolicy = await aPolicyRow(other.organizationId);
    expectError(await create({ teamId: foreignTeam }), 422, 'invalidTeamId');
    expectError(await create({ customerId: other.customer.id }), 422, 'invalidCustomerId');
    expectError(await create({ customerId: other.customer.publicId }), 422, 'invalidCustomerId');
    expectError(await create({ escalationPolicyId: foreignPolicy }), 422, 'imRoutingInvalidPolicyId');
    expectError(await create({ teamId: 'no-such-team' }), 422, 'invalidTeamId');
  });

  it("answers imIncidentNotFound for a missing incident and for another organization's", async () => {
    const theirs = await create({}, other.admin);
    expectError(await api('GET', `/api/im/incidents/${theirs.body.id}`, { token: callers.admin }), 404, 'imIncidentNotFound');
    expectError(await api('POST', `/api/im/incidents/${theirs.body.id}/resolve`, { token: callers.admin }), 404, 'imIncidentNotFound');
    expectError(await api('GET', `/api/im/incidents/${randomUUID()}`, { token: callers.admin }), 404, 'imIncidentNotFound');
    expectError(await api('GET', '/api/im/incidents/not-a-uuid', { token: callers.admin }), 404, 'imIncidentNotFound');
  });

  it('acknowledges, re-triggers, resolves; a closed incident answers imIncidentAlreadyClosed', async () => {
    const { body: incident } = await create();
    const path = `/api/im/incidents/${incident.id}`;
    const acked = await api('POST', `${path}/acknowledge`, { token: callers.responder });
    expect(acked.body).to.include({ status: 'acknowledged', version: 2 });
    expect(acked.body.acknowledgedAt).to.be.a('string');
    expectError(await api('POST', `${path}/acknowledge`, { token: callers.responder }), 422, 'imIncidentInvalidStatusTransition');
    expectError(
      await api('POST', `${path}/status`, { token: callers.admin, body: { status: 'resolved' } }),
      422,
      'imIncidentInvalidStatusTransition',
    );
    expectError(
      await api('POST', `${path}/status`, { token: callers.admin, body: { status: 'acknowledged' } }),
      422,
      'imIncidentInvalidStatusTransition',
    );
    const retriggered = await api('POST', `${path}/status`, { token: callers.admin, body: { status: 'triggered' } });
    expect(retriggered.body).to.include({ status: 'triggered', acknowledgedAt: null });
    const resolved = await api('POST', `${path}/resolve`, { token: callers.editor });
    expect(resolved.body).to.include({ status: 'resolved' });
    expectError(await api('POST', `${path}/resolve`, { token: callers.editor }), 422, 'imIncidentAlreadyClosed');
    expectError(await api('POST', `${path}/acknowledge`, { token: callers.editor }), 422, 'imIncidentAlreadyClosed');
    const read = await api('GET', path, { token: callers.admin });
    expect(read.body.timeline.map((e: { kind: string }) => e.kind)).to.deep.equal([
      'triggered',
      'acknowledged',
      'statusChanged',
      'resolved',
    ]);
  });

  it('snoozes up to 7 days ahead (imSnoozeRangeInvalid otherwise)', async () => {
    const { body: incident } = await create();
    const path = `/api/im/incidents/${incident.id}/snooze`;
    const now = testClock.now().getTime();
    expectError(
      await api('POST', path, { token: callers.admin, body: { snoozedUntil: new Date(now - 1000).toISOString() } }),
      400,
      'imSnoozeRangeInvalid',
    );
    expectError(
      await api('POST', path, { token: callers.admin, body: { snoozedUntil: new Date(now + 8 * 86_400_000).toISOString() } }),
      400,
      'imSnoozeRangeInvalid',
    );
    const until = new Date(now + 3_600_000).toISOString();
    const snoozed = await api('POST', path, { token: callers.admin, body: { snoozedUntil: until } });
    expect(snoozed.body).to.include({ snoozedUntil: until, status: 'triggered' });
  });

  it('merges incidents: sources closed as merged, occurrences counted on the target', async () => {
    const [{ body: target }, { body: a }, { body: b }] = await Promise.all([create(), create(), create()]);
    const merged = await api('POST', `/api/im/incidents/${target.id}/merge`, {
      token: callers.admin,
      body: { sourceIncidentIds: [a.id, b.id] },
    });
    expect(merged.status, JSON.stringify(merged.body)).to.equal(200);
    expect(merged.body.occurrenceCount).to.equal(3);
    const source = await api('GET', `/api/im/incidents/${a.id}`, { token: callers.admin });
    expect(source.body).to.include({ status: 'merged', mergedIntoId: target.id });
    expectError(await api('POST', `/api/im/incidents/${a.id}/resolve`, { token: callers.admin }), 422, 'imIncidentAlreadyClosed');
    expectError(
      await api('POST', `/api/im/incidents/${target.id}/merge`, { token: callers.admin, body: { sourceIncidentIds: [target.id] } }),
      422,
      'imIncidentInvalidStatusTransition',
    );
  });

  it('lists newest first with filters and paging', async () => {
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const teamId = await aTeamRow(set.organizationId);
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(
        (
          await api('POST', '/api/im/incidents', {
            token: set.admin,
            body: { title: `n${i}`, teamId: i === 0 ? teamId : null, customerId: i === 1 ? set.customer.id : null },
          })
        ).body,
      );
      testClock.advance(1000);
    }
    await api('POST', `/api/im/incidents/${made[2].id}/acknowledge`, { token: set.admin });
    const all = await api('GET', '/api/im/incidents', { token: set.admin, query: { perPage: '2' } });
    expect(all.body).to.include({ total: 3, page: 1, perPage: 2 });
    expect(all.body.items.map((i: { title: string }) => i.title)).to.deep.equal(['n2', 'n1']);
    const page2 = await api('GET', '/api/im/incidents', { token: set.admin, query: { perPage: '2', page: '2' } });
    expect(page2.body.items.map((i: { title: string }) => i.title)).to.deep.equal(['n0']);
    const byStatus = await api('GET', '/api/im/incidents', { token: set.admin, query: { status: 'acknowledged,resolved' } });
    expect(byStatus.body.items.map((i: { title: string }) => i.title)).to.deep.equal(['n2']);
    const byTeam = await api('GET', '/api/im/incidents', { token: set.admin, query: { teamId } });
    expect(byTeam.body.items.map((i: { title: string }) => i.title)).to.deep.equal(['n0']);
    const byCustomer = await api('GET', '/api/im/incidents', { token: set.admin, query: { customerId: String(set.customer.id) } });
    expect(byCustomer.body.items.map((i: { title: string }) => i.title)).to.deep.equal(['n1']);
    const window = await api('GET', '/api/im/incidents', {
      token: set.admin,
      query: { since: made[1].createdAt, until: made[2].createdAt },
    });
    expect(window.body.items.map((i: { title: string }) => i.title)).to.deep.equal(['n1']);
    expectError(await api('GET', '/api/im/incidents', { token: set.admin, query: { status: 'open' } }), 400, 'validationFailed');
  });

  it('refuses team incidents to non-members (imTeamMembershipRequired); bulk lists deniedIncidentIds, acknowledging stays open', async () => {
    const teamId = await aTeamRow(callers.organizationId);
    const [{ body: mine }, { body: teamOne }] = await Promise.all([create(), create({ teamId })]);
    expectError(
      await api('POST', `/api/im/incidents/${teamOne.id}/resolve`, { token: callers.responder }),
      403,
      'imTeamMembershipRequired',
    );
    const bulk = await api('POST', '/api/im/incidents/bulk', {
      token: callers.responder,
      body: { action: 'resolve', incidentIds: [mine.id, teamOne.id] },
    });
    expectError(bulk, 403, 'imTeamMembershipRequired');
    expect(bulk.body.data.deniedIncidentIds).to.deep.equal([teamOne.id]);
    expect((await api('GET', `/api/im/incidents/${mine.id}`, { token: callers.admin })).body.status).to.equal('triggered');
    const acked = await api('POST', '/api/im/incidents/bulk', {
      token: callers.responder,
      body: { action: 'acknowledge', incidentIds: [mine.id, teamOne.id] },
    });
    expect(acked.body.items.map((i: { status: string }) => i.status)).to.deep.equal(['acknowledged', 'acknowledged']);
    const resolved = await api('POST', '/api/im/incidents/bulk', {
      token: callers.admin,
      body: { action: 'resolve', incidentIds: [mine.id, teamOne.id] },
    });
    expect(resolved.body.items.map((i: { status: string }) => i.status)).to.deep.equal(['resolved', 'resolved']);
  });

  it('answers imIncidentStatusConflict (409) when the incident changes between read and write; a retry then succeeds', async () => {
    const { body: incident } = await create();
    const locker = new pg.Client({ connectionString: (await testDatabase()).url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM im_incidents WHERE public_id = $1 FOR UPDATE', [incident.id]);
      const pending = api('POST', `/api/im/incidents/${incident.id}/resolve`, { token: callers.admin });
      // Activity statistics are a snapshot per transaction: clear it before every look.
      await waitFor(
        async () =>
          (await locker.query('SELECT pg_stat_clear_snapshot()'),
          await locker.query(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND query LIKE '%UPDATE im_incidents SET status%'`,
          )).rowCount! > 0,
        { what: 'the resolve to wait on the row lock' },
      );
      await locker.query('UPDATE im_incidents SET version = version + 1 WHERE public_id = $1', [incident.id]);
      await locker.query('COMMIT');
      expectError(await pending, 409, 'imIncidentStatusConflict');
    } finally {
      await locker.end();
    }
    const retried = await api('POST', `/api/im/incidents/${incident.id}/resolve`, { token: callers.admin });
    expect(retried.body.status).to.equal('resolved');
  });
});
