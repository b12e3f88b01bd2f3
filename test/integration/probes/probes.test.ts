import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, apiAt, expectError } from '../../support/http-client';
import { anOrganization, type SignedUp } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { TEST_LOCATIONS, testDatabase, testServer } from '../../support/test-server';
import { listening, spawnService, stopService, type ServiceProcess } from '../../support/service-process';
import { probeStarted, spawnProbe } from '../../support/probe-process';
import { waitFor } from '../../support/wait-for';
import { sql, type Sql } from '../../../src/infrastructure/persistence/sql';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A loopback HTTP target that counts the requests it answers. */
async function aTarget() {
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests += 1;
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const db = { query: async <T>(statement: Sql) => (await testServer()).database.sql.query<T>(statement) };

/**
 * Private locations end to end: a service process (API only) and real probes in processes of their
 * own, on loopback. The test's organization creates a private location and a key through the API,
 * its monitors list the location, and the probes check them and report.
 */
describe('probes: private locations checked from elsewhere, reported over HTTP', function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  const tempDir = (label: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), `${label}-`));
    dirs.push(dir);
    return dir;
  };
  let target: Awaited<ReturnType<typeof aTarget>>;
  let org: SignedUp;
  let other: SignedUp;
  let code: string;
  let key: { id: string; secret: string };
  let monitorIds: number[];
  let port: number;
  let serviceEnv: Record<string, string>;
  let service: ServiceProcess;
  let url: string;
  const probes: ServiceProcess[] = [];
  const probeEnv = (dir: string) => ({
    PROBE_SERVER_URL: url,
    PROBE_KEY: key.secret,
    DATA_DIR: dir,
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
  });

  /** Results stored per monitor at the private location, since `since`. */
  const resultsSince = async (since: Date) => {
    const rows = await db.query<{
      monitor_id: string;
      n: string;
    }>(sql`SELECT r.monitor_id, count(*) AS n FROM check_results r JOIN check_locations l ON l.id = r.location_id
       WHERE l.code = ${code} AND r.checked_at >= ${since} AND r.monitor_id = ANY(${monitorIds}::bigint[]) GROUP BY 1`);
    return new Map(rows.map((r) => [Number(r.monitor_id), Number(r.n)]));
  };
  const holders = async () =>
    (await db.query<{ leased_by: string | null }>(sql`SELECT leased_by FROM check_schedule WHERE location = ${code}`)).map(
      (r) => r.leased_by,
    );

  before(async () => {
    target = await aTarget();
    org = await anOrganization('probes');
    other = await anOrganization('probes-other');
    code = `office-${randomBytes(3).toString('hex')}`;
    const created = await api('POST', '/api/locations', { token: org.token, body: { code, name: 'Office' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const issued = await api('POST', `/api/locations/${code}/keys`, { token: org.token, body: { name: 'office probes' } });
    expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
    key = issued.body as { id: string; secret: string };
    const customerId = await aCustomerRow(org.user.organizationId);
    monitorIds = [];
    for (let i = 0; i < 6; i++) {
      const monitor = await aMonitorRow(org.user.organizationId, customerId, {
        locations: [code],
        consecutiveChecks: 1,
        checkIntervalSeconds: 10,
      });
      await db.query(
        sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${target.url}, timeout_seconds = 5 WHERE id = ${monitor.id}`,
      );
      monitorIds.push(monitor.id);
    }
    port = await freePort();
    serviceEnv = {
      DATABASE_URL: (await testDatabase()).url,
      PORT: String(port),
      DATA_DIR: tempDir('probe-service'),
      MONITOR_LOCATIONS: TEST_LOCATIONS.join(','),
      CHECK_LOCATIONS: 'none',
      PUBLIC_BASE_URL: 'http://api.test.example',
    };
    service = spawnService(serviceEnv);
    url = await listening(service);
  });

  after(async () => {
    for (const probe of probes) if (probe.child.exitCode === null) probe.child.kill('SIGKILL');
    if (service) await stopService(service);
    await target?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("two probes share the location's monitors, check them and report their results", async () => {
    const started = new Date(Date.now() - 1_000);
    probes.push(spawnProbe(probeEnv(tempDir('probe-a'))), spawnProbe(probeEnv(tempDir('probe-b'))));
    await Promise.all(probes.map((probe) => probeStarted(probe)));
    await waitFor(async () => (await resultsSince(started)).size === monitorIds.length, {
      timeoutMs: 60_000,
      everyMs: 500,
      what: 'a result of every monitor from the private location',
    });
    expect(target.requests()).to.be.at.least(monitorIds.length);
    // Both probes hold a share once the load is counted (each holds rows of its own).
    await waitFor(async () => new Set((await holders()).filter(Boolean).map((h) => h!.split(':')[1])).size === 2, {
      timeoutMs: 60_000,
      everyMs: 500,
      what: 'both probes holding monitors',
    });
    // Asked of the service process (on real time; the shared test server's clock may run ahead of it).
    const listed = await apiAt(url, 'GET', `/api/locations/${code}/probes`, { token: org.token });
    expect(listed.status).to.equal(200);
    const items = (listed.body as { items: Array<{ live: boolean }> }).items;
    expect(items.map((p) => p.live)).to.deep.equal([true, true]);
    const location = await apiAt(url, 'GET', `/api/locations/${code}`, { token: org.token });
    expect(location.body).to.include({ status: 'live', kind: 'private' });
  });

  it('a trigger-check reaches a probe at once: the service wakes it, it does not wait for its next round', async () => {
    const quiet = await aTarget();
    try {
      const customerId = await aCustomerRow(org.user.organizationId);
      const monitor = await aMonitorRow(org.user.organizationId, customerId, {
        locations: [code],
        consecutiveChecks: 1,
        checkIntervalSeconds: 3_600,
      });
      await db.query(
        sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${quiet.url}, timeout_seconds = 5 WHERE id = ${monitor.id}`,
      );
      await waitFor(
        async () =>
          (await db.query<{ leased_by: string | null }>(sql`SELECT leased_by FROM check_schedule WHERE monitor_id = ${monitor.id}`))[0]
            ?.leased_by,
        { timeoutMs: 30_000, everyMs: 200, what: 'a probe holding the new monitor' },
      );
      const before = quiet.requests();
      const triggered = await apiAt(url, 'POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
      expect(triggered.status, JSON.stringify(triggered.body)).to.equal(202);
      const at = Date.now();
      await waitFor(() => quiet.requests() > before, { timeoutMs: 15_000, everyMs: 50, what: 'the triggered check' });
      // A probe that waited for its next round would take up to 5 s.
      expect(Date.now() - at, 'checked within 2 s of the trigger').to.be.below(2_000);
    } finally {
      await quiet.close();
    }
  });

  it('a probe killed: its monitors go to the other probe within the lease, and checks go on', async () => {
    const [a, b] = probes;
    const survivor = (await probeStarted(a!)) as string;
    b!.child.kill('SIGKILL');
    await b!.exited;
    const killedAt = new Date();
    await waitFor(async () => (await holders()).every((h) => h?.split(':')[1] === survivor), {
      timeoutMs: 60_000,
      everyMs: 500,
      what: "the survivor holding every row of the killed probe's",
    });
    await waitFor(async () => (await resultsSince(killedAt)).size === monitorIds.length, {
      timeoutMs: 60_000,
      everyMs: 500,
      what: 'every monitor checked after the kill',
    });
  });

  it('the server restarted mid-run: results checked while it was down arrive, each once', async () => {
    await stopService(service);
    const downFrom = new Date();
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const downTo = new Date();
    service = spawnService(serviceEnv);
    url = await listening(service);
    await waitFor(
      async () =>
        (
          await db.query<{ n: string }>(sql`SELECT count(*) AS n FROM check_results r JOIN check_locations l ON l.id = r.location_id
       WHERE l.code = ${code} AND r.checked_at BETWEEN ${downFrom} AND ${downTo}`)
        ).length > 0 &&
        Number(
          (
            await db.query<{ n: string }>(sql`SELECT count(*) AS n FROM check_results r JOIN check_locations l ON l.id = r.location_id
         WHERE l.code = ${code} AND r.checked_at BETWEEN ${downFrom} AND ${downTo}`)
          )[0]!.n,
        ) >= monitorIds.length,
      {
        timeoutMs: 60_000,
        everyMs: 500,
        what: 'the results checked while the server was down',
      },
    );
    const [twice] = await db.query<{
      n: string;
    }>(sql`SELECT count(*) AS n FROM (SELECT monitor_id, checked_at FROM check_results r JOIN check_locations l ON l.id = r.location_id
       WHERE l.code = ${code} GROUP BY 1, 2 HAVING count(*) > 1) d`);
    expect(Number(twice!.n), 'results stored twice').to.equal(0);
  });

  it('a batch sent again is stored once', async () => {
    const instance = randomUUID();
    const call = (path: string, body: unknown) =>
      fetch(`${url}/api/probe${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}`, 'x-probe-instance': instance, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await call('/hello', { name: 'replayer', version: 'test' })).status).to.equal(200);
    const checkedAt = Date.now() - 90_000;
    const result = (seq: number, offset: number) => ({
      seq,
      worker: `probe:${instance}:0`,
      monitorId: monitorIds[0],
      slot: checkedAt + offset,
      startedAt: checkedAt + offset,
      result: {
        kind: 'http',
        status: 'up',
        reason: null,
        findings: [],
        timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2, totalMs: 3 },
        evidence: {},
        checkedAt: checkedAt + offset,
      },
    });
    const status = { monitorsHeld: 0, checksPerSecond: 0, lagMs: 0, buffered: 2, dropped: 0 };
    const batch = { results: [result(1, 1), result(2, 2)], status };
    const first = (await (await call('/results', batch)).json()) as Record<string, unknown>;
    const again = (await (await call('/results', batch)).json()) as Record<string, unknown>;
    expect(first).to.include({ lastSeq: 2, late: 2, duplicates: 0 });
    expect(again).to.include({ lastSeq: 2, late: 0, duplicates: 2 });
    const [stored] = await db.query<{ n: string }>(
      sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${monitorIds[0]} AND checked_at IN (${new Date(checkedAt + 1)}, ${new Date(checkedAt + 2)})`,
    );
    expect(Number(stored!.n)).to.equal(2);
  });

  it('another organization sees nothing of the private location and cannot use it', async () => {
    expectError(await api('GET', `/api/locations/${code}`, { token: other.token }), 404, 'locationNotFound');
    expectError(await api('GET', `/api/locations/${code}/probes`, { token: other.token }), 404, 'locationNotFound');
  });

  it('a revoked key is refused (within the key cache of 10 s)', async () => {
    const revoked = await api('DELETE', `/api/locations/${code}/keys/${key.id}`, { token: org.token });
    expect(revoked.status, JSON.stringify(revoked.body)).to.be.oneOf([200, 204]);
    await waitFor(
      async () =>
        (
          await fetch(`${url}/api/probe/hello`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key.secret}`, 'x-probe-instance': randomUUID(), 'content-type': 'application/json' },
            body: '{}',
          })
        ).status === 401,
      { timeoutMs: 20_000, everyMs: 500, what: 'the revoked key refused' },
    );
  });
});
