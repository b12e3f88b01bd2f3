import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, expectError } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { testClock } from '../../support/test-clock';
import { testServer } from '../../support/test-server';
import { anEngineFor, runUntilRecorded } from '../../support/engine-runs';
import { waitFor } from '../../support/wait-for';
import { sql } from '../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';

/** A loopback HTTP target whose answer the test switches. */
async function aTarget() {
  let status = 200;
  const server = http.createServer((_req, res) => res.writeHead(status).end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    answer: (code: number) => (status = code),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('check engine: schedule, checker, results and incidents end to end', () => {
  let target: Awaited<ReturnType<typeof aTarget>>;
  let monitorIds: Set<number>;

  before(async () => {
    await useLoopbackChecks({});
    target = await aTarget();
    monitorIds = new Set();
  });
  after(() => target.close());

  /** A dispatcher of the real engine that runs only this test's monitors (others share the location). */
  const aDispatcher = (workerId: string, leaseMs?: number) => anEngineFor(monitorIds, [LOCATION], workerId, leaseMs);

  async function aWebsite() {
    const org = await anOrganization('engine');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { locations: [LOCATION], consecutiveChecks: 1 });
    const { database } = await testServer();
    await database.sql.query(
      sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${target.url}, timeout_seconds = 5 WHERE id = ${monitor.id}`,
    );
    // Align the slot with the test clock (ahead of real time): not due until triggered.
    await database.sql.query(
      sql`UPDATE check_schedule SET next_due_at = ${new Date(testClock.now().getTime() + 3_600_000)} WHERE monitor_id = ${monitor.id}`,
    );
    monitorIds.add(monitor.id);
    return { org, monitor };
  }

  async function openIncidents(token: string, monitorId: number) {
    const list = await api('GET', '/api/incidents', { token, query: { status: 'open' } });
    expect(list.status).to.equal(200);
    return list.body.items.filter((i: { monitorId: number; origin: string }) => i.monitorId === monitorId && i.origin === 'automatic');
  }

  it('checks a website now from its locations, records the result, opens one incident on failure and closes it on recovery', async () => {
    const { org, monitor } = await aWebsite();
    const dispatcher = await aDispatcher('engine-a');

    const asking = testClock.now().getTime();
    const triggered = await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
    expect(triggered.status).to.equal(202);
    const { requestedAt } = triggered.body;
    expect(triggered.body).to.deep.equal({ websiteId: monitor.publicId, locations: [LOCATION], triggered: 1, requestedAt });
    expect(Date.parse(requestedAt)).to.be.within(asking, testClock.now().getTime());
    await runUntilRecorded(dispatcher, 1);
    const history = await api('GET', `/api/websites/${monitor.id}/check-history`, { token: org.token });
    expect(history.body.items).to.have.length(1);
    expect(history.body.items[0]).to.include({ location: LOCATION, status: 'up' });
    // The answer to the trigger is checked at or after requestedAt.
    expect(Date.parse(history.body.items[0].checkedAt)).to.be.at.least(Date.parse(requestedAt));

    target.answer(500);
    for (let i = 0; i < 2; i++) {
      await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
      await runUntilRecorded(dispatcher, 1);
    }
    expect(await openIncidents(org.token, monitor.id)).to.have.length(1);

    target.answer(200);
    await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
    await runUntilRecorded(dispatcher, 1);
    expect(await openIncidents(org.token, monitor.id)).to.have.length(0);
    const after = await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: org.token });
    expect(after.body.items.map((r: { status: string }) => r.status)).to.deep.equal(['up', 'down', 'down', 'up']);
  });

  it("loses no check when a worker dies mid-run: another takes the slot after the lease, and the dead one's late completion counts for nothing", async () => {
    const { org, monitor } = await aWebsite();
    await testServer();
    await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
    const dying = await aDispatcher('engine-dying', 1_000);
    await dying.pump();
    expect(dying.stats.started).to.equal(1);
    // The worker "dies": it never records. Its lease lapses after a second of the test clock.
    testClock.advance(1_500);
    const rescuer = await aDispatcher('engine-rescuer');
    await runUntilRecorded(rescuer, 1);
    await waitFor(() => dying.unrecorded === 1, { what: "the dying worker's check to end" });
    await dying.flush();
    expect(dying.stats).to.include({ recorded: 0, dropped: 1 });
    const history = await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: org.token });
    expect(history.body.items).to.have.length(1);
  });

  it('answers noLocationsConfigured for a website without locations, and 404 out of scope', async () => {
    const { org, monitor } = await aWebsite();
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET locations = '{}' WHERE id = ${monitor.id}`);
    expectError(await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token }), 400, 'noLocationsConfigured');
    const other = await anOrganization('other');
    expectError(await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: other.token }), 404, 'websiteNotFound');
  });
});
