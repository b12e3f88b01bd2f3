import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, apiAt } from '../../support/http-client';
import { anOrganization, type SignedUp } from '../../support/builders';
import { aMonitorPackage, aMonitoredCustomer } from '../../support/monitoring-fixtures';
import { ApiPeer } from '../../support/peers/api-peer';
import { TEST_LOCATIONS, testDatabase, testServer } from '../../support/test-server';
import { listening, spawnService, stopService, type ServiceProcess } from '../../support/service-process';
import { probeStarted, spawnProbe } from '../../support/probe-process';
import { waitFor } from '../../support/wait-for';
import { sql } from '../../../src/infrastructure/persistence/sql';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface StoredResult {
  status: number;
  reason_code: string | null;
  detail: { message?: string; evidence?: { apiChain?: { failedStep: number | null } } } | null;
  row: string;
}

/**
 * API chains from a private location: the chain is created through a service process (API only),
 * which plans it for a real probe in a process of its own; the probe runs the same checker under its
 * own target policy (CHECK_PRIVATE_ALLOWLIST 127.0.0.1/32) with the secret the plan carries, and
 * reports results the service stores.
 */
describe('probes: API chains checked from a private location', function () {
  this.timeout(300_000);
  const secret = `probe-secret-${randomUUID()}`;
  const peer = new ApiPeer(secret);
  const outside = new ApiPeer(secret, '127.0.0.2');
  const dirs: string[] = [];
  const tempDir = (label: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), `${label}-`));
    dirs.push(dir);
    return dir;
  };
  let org: SignedUp;
  let customerId: number;
  let code: string;
  let url: string;
  let service: ServiceProcess;
  let probe: ServiceProcess | undefined;

  before(async () => {
    await Promise.all([peer.start(), outside.start()]);
    org = await anOrganization('probe-chains');
    const pkg = await aMonitorPackage(org.token);
    customerId = (await aMonitoredCustomer(org.token, { packageId: pkg.id })).id;
    code = `office-${randomBytes(3).toString('hex')}`;
    expect((await api('POST', '/api/locations', { token: org.token, body: { code, name: 'Office' } })).status).to.equal(201);
    const issued = await api('POST', `/api/locations/${code}/keys`, { token: org.token, body: { name: 'office probe' } });
    expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
    service = spawnService({
      DATABASE_URL: (await testDatabase()).url,
      PORT: String(await freePort()),
      DATA_DIR: tempDir('chain-service'),
      MONITOR_LOCATIONS: TEST_LOCATIONS.join(','),
      CHECK_LOCATIONS: 'none',
      PUBLIC_BASE_URL: 'http://api.test.example',
    });
    url = await listening(service);
    probe = spawnProbe({
      PROBE_SERVER_URL: url,
      PROBE_KEY: (issued.body as { secret: string }).secret,
      DATA_DIR: tempDir('chain-probe'),
      CHECK_PRIVATE_ALLOWLIST: '127.0.0.1/32',
    });
    await probeStarted(probe);
  });

  after(async () => {
    if (probe && probe.child.exitCode === null) probe.child.kill('SIGKILL');
    if (service) await stopService(service);
    await Promise.all([peer.stop(), outside.stop()]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A chain created through the service (checked only from the private location: loopback hosts are the probe's to judge), run now. */
  async function aChainRunByTheProbe(thirdHost: string | null): Promise<StoredResult> {
    const steps = [
      {
        name: 'log in',
        method: 'POST',
        url: peer.url('/login'),
        body: '{"user":"ann","password":"{{secrets.password}}"}',
        extract: [{ variable: 'token', source: 'jsonPath', expression: '$.token' }],
      },
      { name: 'read profile', url: peer.url('/me'), headers: { authorization: 'Bearer {{token}}' } },
      ...(thirdHost ? [{ name: 'elsewhere', url: `http://${thirdHost}:${outside.port}/me` }] : []),
    ];
    const created = await apiAt(url, 'POST', '/api/websites', {
      token: org.token,
      body: {
        customerId,
        monitoringType: 'api_chain',
        locations: [code],
        checkInterval: 60,
        timeoutSeconds: 10,
        steps,
        secrets: { password: secret },
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.id as number;
    const { database } = await testServer();
    await waitFor(
      async () =>
        (await database.sql.query<{ leased_by: string | null }>(sql`SELECT leased_by FROM check_schedule WHERE monitor_id = ${id}`))[0]
          ?.leased_by,
      { timeoutMs: 30_000, everyMs: 200, what: 'the probe holding the chain' },
    );
    const triggered = await apiAt(url, 'POST', `/api/websites/${created.body.publicId}/trigger-check`, { token: org.token });
    expect(triggered.status, JSON.stringify(triggered.body)).to.equal(202);
    let stored: StoredResult | undefined;
    await waitFor(
      async () => {
        [stored] = await database.sql.query<StoredResult>(
          sql`SELECT status, reason_code, detail, r::text AS row FROM check_results r WHERE monitor_id = ${id} ORDER BY checked_at DESC LIMIT 1`,
        );
        return stored !== undefined;
      },
      { timeoutMs: 30_000, everyMs: 200, what: 'a result reported by the probe' },
    );
    return stored!;
  }

  it('runs a login-then-read chain with the secret the plan carries: up', async () => {
    const result = await aChainRunByTheProbe(null);
    expect(result, JSON.stringify(result)).to.include({ status: 1, reason_code: null });
    expect(
      peer.requests.some((r) => r.body.includes(secret)),
      'the secret reached the API',
    ).to.equal(true);
    expect(result.row).to.not.contain(secret);
  });

  it("refuses a step the probe's allowlist does not admit: targetRejected naming step 3, the address hears nothing", async () => {
    const result = await aChainRunByTheProbe('127.0.0.2');
    expect(result.reason_code).to.equal('targetRejected');
    expect(result.detail?.message).to.match(/^Step 3 \(elsewhere\): /);
    expect(result.detail?.evidence?.apiChain?.failedStep).to.equal(2);
    expect(outside.requests).to.deep.equal([]);
    expect(result.row).to.not.contain(secret);
  });
});
