import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { testServer } from '../../../support/test-server';
import { aMember } from '../../../support/identity-fixtures';
import { testClock } from '../../../support/test-clock';
import { sql } from '../../../../src/infrastructure/persistence/sql';

/** The IM incident actions beyond status moves: escalate now, add a responder, retry an outbound page. */
describe('IM incident actions over HTTP', () => {
  let callers: CallerSet;
  let other: CallerSet;

  before(async () => {
    [callers, other] = await Promise.all([aCallerSet(), aCallerSet()]);
    await Promise.all([setIncidentManagement(callers.organizationId, true), setIncidentManagement(other.organizationId, true)]);
  });

  const pagesOf = async (incidentId: string) => {
    const { database } = await testServer();
    return database.sql.query<{ subject: string | null }>(
      sql`SELECT * FROM notification_deliveries WHERE incident_id = ${incidentId} ORDER BY id`,
    );
  };

  describe('POST /api/im/incidents/{id}/escalate', () => {
    it('pages the next level at once and records it on the timeline; a closed incident answers imIncidentAlreadyClosed', async () => {
      const policy = await api('POST', '/api/escalation-config', {
        token: callers.admin,
        body: { name: 'Now', repeatCount: 0, levels: [{ delayMinutes: 30, targets: [{ type: 'user', id: callers.org.user.id }] }] },
      });
      expect(policy.status, JSON.stringify(policy.body)).to.equal(201);
      const incident = await api('POST', '/api/im/incidents', {
        token: callers.admin,
        body: { title: 'Cart broken', escalationPolicyId: policy.body.id },
      });
      expect(incident.status, JSON.stringify(incident.body)).to.equal(201);
      const path = `/api/im/incidents/${incident.body.id}`;

      const escalated = await api('POST', `${path}/escalate`, { token: callers.admin });
      expect(escalated.status, JSON.stringify(escalated.body)).to.equal(200);
      expect(escalated.body).to.include({ id: incident.body.id, status: 'triggered' });
      expect(await pagesOf(incident.body.id)).to.have.length(1);
      const read = await api('GET', path, { token: callers.admin });
      const entry = read.body.timeline.find((e: { kind: string }) => e.kind === 'escalated');
      expect(entry.details).to.deep.equal({ level: 1, pages: 1 });

      expect((await api('POST', `${path}/resolve`, { token: callers.admin })).status).to.equal(200);
      expectError(await api('POST', `${path}/escalate`, { token: callers.admin }), 422, 'imIncidentAlreadyClosed');
    });

    it("answers imIncidentNotFound for a missing incident and for another organization's", async () => {
      const foreign = await api('POST', '/api/im/incidents', { token: other.admin, body: { title: 'Theirs' } });
      expect(foreign.status).to.equal(201);
      expectError(await api('POST', `/api/im/incidents/${foreign.body.id}/escalate`, { token: callers.admin }), 404, 'imIncidentNotFound');
      expectError(await api('POST', `/api/im/incidents/${randomUUID()}/escalate`, { token: callers.admin }), 404, 'imIncidentNotFound');
    });
  });

  describe('POST /api/im/incidents/{id}/responders', () => {
    it('adds a responder (timeline), pages them when a team admin asks; plain members, ineligible users and closed incidents are refused', async () => {
      const [lead, plain, dana, reader, gone] = await Promise.all([
        aMember(callers.org, 'responder'),
        aMember(callers.org, 'responder'),
        aMember(callers.org, 'editor'),
        aMember(callers.org, 'readonly'),
        aMember(callers.org, 'responder'),
      ]);
      const { database } = await testServer();
      await database.sql.query(sql`UPDATE users SET is_active = false WHERE id = ${gone.id}`);
      const team = await api('POST', '/api/im/teams', {
        token: callers.admin,
        body: {
          name: `Responders ${randomUUID()}`,
          members: [
            { userId: lead.id, imRole: 'admin' },
            { userId: plain.id, imRole: 'member' },
          ],
        },
      });
      expect(team.status, JSON.stringify(team.body)).to.be.oneOf([200, 201]);
      const incident = await api('POST', '/api/im/incidents', {
        token: callers.admin,
        body: { title: 'Payments slow', teamId: team.body.id },
      });
      expect(incident.status, JSON.stringify(incident.body)).to.equal(201);
      const path = `/api/im/incidents/${incident.body.id}`;
      const addAs = (token: string, body: Record<string, unknown>) => api('POST', `${path}/responders`, { token, body });

      const quiet = await addAs(plain.token, { userId: dana.id, notify: false });
      expect(quiet.status, JSON.stringify(quiet.body)).to.equal(200);
      expectError(await addAs(plain.token, { userId: dana.id, notify: true }), 403, 'imTeamAdminRequired');
      expect(await pagesOf(incident.body.id)).to.have.length(0);

      const paged = await addAs(lead.token, { userId: dana.id, notify: true });
      expect(paged.status, JSON.stringify(paged.body)).to.equal(200);
      expect(await pagesOf(incident.body.id)).to.have.length(1);
      const read = await api('GET', path, { token: callers.admin });
      const entries = read.body.timeline
        .filter((e: { kind: string }) => e.kind === 'responderAdded')
        .map((e: { details: unknown }) => e.details);
      expect(entries).to.deep.equal([
        { userId: dana.id, notified: false },
        { userId: dana.id, notified: true },
      ]);

      expectError(await addAs(callers.admin, { userId: reader.id, notify: false }), 400, 'imUserNotEligible');
      expectError(await addAs(callers.admin, { userId: gone.id, notify: false }), 400, 'imUserNotEligible');
      expectError(await addAs(callers.admin, { userId: other.org.user.id, notify: false }), 400, 'imUserNotEligible');
      expectError(await addAs(callers.responder, { userId: dana.id, notify: false }), 403, 'imTeamMembershipRequired');

      expect((await api('POST', `${path}/resolve`, { token: callers.admin })).status).to.equal(200);
      expectError(await addAs(callers.admin, { userId: dana.id, notify: false }), 422, 'imIncidentAlreadyClosed');
    });
  });

  describe('POST /api/im/outbound/{id}/retry', () => {
    it('re-queues a failed IM page; not found, not failed, not an IM page, another organization, and 10 per minute per integration', async () => {
      const { database } = await testServer();
      const policy = await api('POST', '/api/escalation-config', {
        token: callers.admin,
        body: { name: 'Retry', repeatCount: 0, levels: [{ delayMinutes: 30, targets: [{ type: 'user', id: callers.org.user.id }] }] },
      });
      const incident = await api('POST', '/api/im/incidents', {
        token: callers.admin,
        body: { title: 'Queue stuck', escalationPolicyId: policy.body.id },
      });
      expect((await api('POST', `/api/im/incidents/${incident.body.id}/escalate`, { token: callers.admin })).status).to.equal(200);
      const [page] = await database.sql.query<{ id: string }>(
        sql`SELECT id::text FROM notification_deliveries WHERE incident_id = ${incident.body.id}`,
      );
      const fail = () =>
        database.sql.query(
          sql`UPDATE notification_deliveries SET status = 'failed', failed_at = ${testClock.now()}, next_attempt_at = ${new Date(testClock.now().getTime() + 86_400_000)} WHERE id = ${page!.id}::uuid`,
        );
      const retry = (id: string, token = callers.admin) => api('POST', `/api/im/outbound/${id}/retry`, { token });

      expectError(await retry(page!.id), 409, 'imOutboundNotFailed');
      await fail();
      expectError(await retry(page!.id, other.admin), 404, 'imOutboundNotFound');
      expectError(await retry(randomUUID()), 404, 'imOutboundNotFound');
      expectError(await retry('not-a-uuid'), 404, 'imOutboundNotFound');
      const [report] = await database.sql.query<{ id: string }>(
        sql`INSERT INTO notification_deliveries (organization_id, channel_type, event, payload, recipient, dedup_key, status, next_attempt_at, created_at)
         VALUES (${callers.organizationId}, 'email', 'report.ready', '{}'::jsonb, '{"type":"email","address":"r@example.com"}'::jsonb, ${randomUUID()}, 'failed', now(), now())
         RETURNING id::text`,
      );
      expectError(await retry(report!.id), 404, 'imOutboundNotFound');

      // The limiter counts in fixed one-minute windows of the server's clock: start the eleven retries at a window's start.
      testClock.advance(60_000 - (testClock.now().getTime() % 60_000) + 1);
      const first = await retry(page!.id);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body).to.deep.equal({ id: page!.id, status: 'pending', integration: 'email' });
      const [row] = await database.sql.query<{ status: string; due: boolean }>(
        sql`SELECT status, next_attempt_at <= ${testClock.now()} AS due FROM notification_deliveries WHERE id = ${page!.id}::uuid`,
      );
      expect(row).to.deep.equal({ status: 'pending', due: true });

      for (let i = 1; i < 10; i += 1) {
        await fail();
        expect((await retry(page!.id)).status).to.equal(200);
      }
      await fail();
      const limited = await retry(page!.id);
      expectError(limited, 429, 'imOutboundRetryRateLimited');
      expect(limited.body.data.retryAfter).to.be.a('number').greaterThan(0);
    });
  });
});
