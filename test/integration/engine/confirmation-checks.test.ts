import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { testClock } from '../../support/test-clock';
import { testServer } from '../../support/test-server';
import { anEngineFor, runUntilRecorded } from '../../support/engine-runs';
import { sql } from '../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';
const OTHER = 'us-east';

describe('confirmation re-checks through the real engine (loopback target, PostgreSQL)', () => {
  let status = 200;
  let server: http.Server;
  let url: string;
  const monitorIds = new Set<number>();

  before(async () => {
    await useLoopbackChecks({});
    server = http.createServer((_req, res) => res.writeHead(status).end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('a 5-minute monitor needing 2 failures alerts one retry interval after the first failure, not an interval later', async () => {
    const org = await anOrganization('confirm');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, {
      locations: [LOCATION],
      consecutiveChecks: 2,
      checkIntervalSeconds: 300,
    });
    const { database } = await testServer();
    await database.sql.query(
      sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${url}, timeout_seconds = 5, check_interval = 5, alert_retry_interval = 10
        WHERE id = ${monitor.id}`,
    );
    // The regular slot is an hour away on the test clock: every check below is a trigger or a confirmation.
    await database.sql.query(
      sql`UPDATE check_schedule SET next_due_at = ${new Date(testClock.now().getTime() + 3_600_000)} WHERE monitor_id = ${monitor.id}`,
    );
    monitorIds.add(monitor.id);
    const dispatcher = await anEngineFor(monitorIds, [LOCATION], 'confirming');
    const incidents = async () =>
      (await api('GET', '/api/incidents', { token: org.token, query: { monitorId: String(monitor.id) } })).body.items as Array<{
        status: string;
        startedAt: string;
      }>;

    status = 503;
    await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
    await runUntilRecorded(dispatcher, 1);
    expect(await incidents(), 'one failure of two: nothing yet').to.have.length(0);
    const [change] = await database.sql.query<{ due: Date }>(
      sql`SELECT changed_at AS due FROM check_changes WHERE monitor_id = ${monitor.id} AND triggered ORDER BY seq DESC LIMIT 1`,
    );
    const history = await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: org.token });
    const firstFailure = new Date(history.body.items[0].checkedAt).getTime();
    expect(new Date(change!.due).getTime() - firstFailure, 'confirmation logged for the retry interval later').to.equal(10_000);

    // Not before its time: a round now runs nothing.
    const started = dispatcher.stats.started;
    await dispatcher.pump();
    expect(dispatcher.stats.started).to.equal(started);

    testClock.advance(10_500);
    await runUntilRecorded(dispatcher, 1);
    const open = await incidents();
    expect(open, 'the confirmation failed too: the incident opens').to.have.length(1);
    expect(open[0]!.status).to.equal('open');
    expect(new Date(open[0]!.startedAt).getTime(), 'the outage started at the first failure').to.equal(firstFailure);
    const after = await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: org.token });
    const times = after.body.items.map((r: { checkedAt: string }) => new Date(r.checkedAt).getTime()).reverse();
    expect(times).to.have.length(2);
    expect(times[1] - times[0], 'about the retry interval apart, not 5 minutes').to.be.within(10_000, 15_000);

    // Recovery: one up result of the only location resolves at once (nothing left to confirm).
    status = 200;
    await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
    await runUntilRecorded(dispatcher, 1);
    expect((await incidents()).map((i) => i.status)).to.deep.equal(['resolved']);
  });

  it('a failure that recovers at its confirmation opens nothing, and the monitor goes back to its interval', async () => {
    const org = await anOrganization('confirm-recover');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, {
      locations: [LOCATION],
      consecutiveChecks: 2,
      checkIntervalSeconds: 300,
    });
    const { database } = await testServer();
    await database.sql.query(
      sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${url}, timeout_seconds = 5, check_interval = 5, alert_retry_interval = 10
        WHERE id = ${monitor.id}`,
    );
    await database.sql.query(
      sql`UPDATE check_schedule SET next_due_at = ${new Date(testClock.now().getTime() + 3_600_000)} WHERE monitor_id = ${monitor.id}`,
    );
    monitorIds.add(monitor.id);
    const dispatcher = await anEngineFor(monitorIds, [LOCATION], 'confirming-recover');

    status = 503;
    await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
    await runUntilRecorded(dispatcher, 1);
    status = 200;
    testClock.advance(10_500);
    await runUntilRecorded(dispatcher, 1);
    const list = await api('GET', '/api/incidents', { token: org.token, query: { monitorId: String(monitor.id) } });
    expect(list.body.items).to.have.length(0);
    const [{ n }] = (await database.sql.query<{ n: string }>(
      sql`SELECT count(*) AS n FROM check_changes WHERE monitor_id = ${monitor.id} AND triggered AND changed_at > ${testClock.now()}`,
    )) as [{ n: string }];
    expect(Number(n), 'no further confirmation asked').to.equal(0);
    const history = await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: org.token });
    expect(history.body.items.map((r: { status: string }) => r.status)).to.deep.equal(['up', 'down']);
  });

  it('asks every location for the confirmation at its time, also one whose own slot came between: the round decides the quorum', async () => {
    const org = await anOrganization('confirm-locations');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, {
      locations: [LOCATION, OTHER],
      consecutiveChecks: 2,
      checkIntervalSeconds: 300,
      threshold: '1.00',
      thresholdCount: 2,
    });
    const { database } = await testServer();
    await database.sql.query(
      sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${url}, timeout_seconds = 5, check_interval = 5, alert_retry_interval = 10
        WHERE id = ${monitor.id}`,
    );
    // The locations sit at different points of the interval: eu-west is due now, us-east 5 s later
    // (before the confirmation eu-west's failure asks for, 10 s after it).
    const now = testClock.now().getTime();
    await database.sql.query(
      sql`UPDATE check_schedule SET next_due_at = ${new Date(now)} WHERE monitor_id = ${monitor.id} AND location = ${LOCATION}`,
    );
    await database.sql.query(
      sql`UPDATE check_schedule SET next_due_at = ${new Date(now + 5_000)} WHERE monitor_id = ${monitor.id} AND location = ${OTHER}`,
    );
    monitorIds.add(monitor.id);
    const dispatcher = await anEngineFor(monitorIds, [LOCATION, OTHER], 'confirming-locations');
    const results = async () =>
      (
        await database.sql.query<{ location: string; checked_at: Date }>(
          sql`SELECT l.code AS location, r.checked_at FROM check_results r JOIN check_locations l ON l.id = r.location_id
            WHERE r.monitor_id = ${monitor.id} ORDER BY r.checked_at`,
        )
      ).map((r) => ({ location: r.location, at: new Date(r.checked_at).getTime() - now }));

    // us-east is served by other tests' processes alone: this worker resigns at the end.
    try {
      status = 503;
      await runUntilRecorded(dispatcher, 1);
      testClock.advance(5_500);
      await runUntilRecorded(dispatcher, 1);
      expect(
        (await results()).map((r) => r.location),
        "each location's own slot",
      ).to.deep.equal([LOCATION, OTHER]);

      testClock.advance(5_000);
      await runUntilRecorded(dispatcher, 2);
      const [euFirst, usFirst, ...round] = await results();
      expect(round.map((r) => r.location).sort(), 'both locations answer the confirmation round').to.deep.equal([LOCATION, OTHER].sort());
      expect(
        round.every((r) => r.at >= euFirst!.at + 10_000),
        'at the time asked',
      ).to.equal(true);
      expect(
        round.find((r) => r.location === OTHER)!.at - usFirst!.at,
        "us-east answers eu-west's round, not only its own confirmation a retry interval after its first failure",
      ).to.be.below(9_000);
      const list = await api('GET', '/api/incidents', { token: org.token, query: { monitorId: String(monitor.id) } });
      expect(list.body.items, 'both locations failed twice: the incident opens in that round').to.have.length(1);
    } finally {
      status = 200;
      await dispatcher.drain();
    }
  });
});
