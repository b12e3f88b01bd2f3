import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { anOrganization } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { aProbeSite } from '../../support/probe-api';
import { probeStarted, spawnProbe } from '../../support/probe-process';
import type { ServiceProcess } from '../../support/service-process';
import { TEST_LOCATIONS, testServer } from '../../support/test-server';
import { waitFor } from '../../support/wait-for';

const db = async <T>(statement: ReturnType<typeof sql>) => (await testServer()).database.sql.query<T>(statement);
const storedFor = async (monitorId: number) =>
  Number((await db<{ n: string }>(sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${monitorId}`))[0]!.n);

/** A loopback HTTP target counting the requests each path gets (one path per monitor). */
async function aTarget() {
  const requests = new Map<string, number>();
  const server = http.createServer((req, res) => {
    requests.set(req.url ?? '', (requests.get(req.url ?? '') ?? 0) + 1);
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (p: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/${p}`,
    requests: (p: string) => requests.get(`/${p}`) ?? 0,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A real probe (its own process, against the shared test server) checking four monitors every 2 s:
 * once one is paused, one deleted and one no longer lists the probe's location, the probe stops
 * checking those three (their targets hear nothing more, no result of theirs is stored) and goes on
 * checking the fourth.
 */
describe('probes: a probe stops checking monitors taken away from its location', function () {
  this.timeout(90_000);
  let target: Awaited<ReturnType<typeof aTarget>>;
  let probe: ServiceProcess | undefined;
  let dir: string;

  before(async () => {
    target = await aTarget();
    dir = mkdtempSync(path.join(tmpdir(), 'probe-gone-'));
  });

  after(async () => {
    if (probe && probe.child.exitCode === null) {
      probe.child.kill('SIGKILL');
      await probe.exited;
    }
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops checking a paused, a deleted and a moved monitor, and goes on with the others', async () => {
    const org = await anOrganization('probe-process-gone');
    const site = await aProbeSite(org.token, 'office');
    const customerId = await aCustomerRow(org.user.organizationId);
    const names = ['kept', 'paused', 'deleted', 'moved'] as const;
    const ids: Record<(typeof names)[number], number> = { kept: 0, paused: 0, deleted: 0, moved: 0 };
    for (const name of names) {
      const monitor = await aMonitorRow(org.user.organizationId, customerId, { locations: [site.code], checkIntervalSeconds: 2 });
      await db(
        sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${target.url(name)}, timeout_seconds = 5 WHERE id = ${monitor.id}`,
      );
      ids[name] = monitor.id;
    }
    probe = spawnProbe({
      PROBE_SERVER_URL: (await testServer()).url,
      PROBE_KEY: site.key,
      DATA_DIR: dir,
      CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    });
    await probeStarted(probe);
    await waitFor(() => names.every((name) => target.requests(name) > 0), {
      timeoutMs: 30_000,
      everyMs: 100,
      what: 'the probe checking every monitor',
    });

    await db(sql`UPDATE monitors SET status = 'paused' WHERE id = ${ids.paused}`);
    await db(sql`DELETE FROM monitors WHERE id = ${ids.deleted}`);
    await db(sql`UPDATE monitors SET locations = ${`{${TEST_LOCATIONS[0]}}`}::text[] WHERE id = ${ids.moved}`);
    // The probe is woken by the change; a check already under way may still finish.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const heard = { paused: target.requests('paused'), deleted: target.requests('deleted'), moved: target.requests('moved') };
    const kept = target.requests('kept');
    const stored = { paused: await storedFor(ids.paused), moved: await storedFor(ids.moved) };

    // Three intervals later the monitor still checked from there was checked again, the others not.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(target.requests('kept'), 'the kept monitor checked on').to.be.at.least(kept + 2);
    expect({ paused: target.requests('paused'), deleted: target.requests('deleted'), moved: target.requests('moved') }).to.deep.equal(
      heard,
    );
    expect({ paused: await storedFor(ids.paused), moved: await storedFor(ids.moved) }).to.deep.equal(stored);
  });
});
