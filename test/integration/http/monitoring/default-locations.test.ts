import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { SqlServedLocations } from '../../../../src/infrastructure/scheduling/sql-served-locations';
import { anOrganization } from '../../../support/builders';
import { aMonitorPackage, aMonitoredCustomer, PUBLIC_URL } from '../../../support/monitoring-fixtures';
import { testConfig, testDatabase, testDnsServer } from '../../../support/test-server';

/**
 * Two processes of one deployment sharing the database, as with a process per region: an API-only
 * one, and a check process serving one location of the catalogue. The catalogue is this test's own,
 * so no other test's workers serve any of it.
 */
describe('locations of a new monitor', function () {
  this.timeout(60_000);
  const tag = randomBytes(3).toString('hex');
  const catalogue = [`north-${tag}`, `south-${tag}`];
  const start = async (checkLocations: string, checkWorker: boolean) =>
    startApplication(
      {
        ...testConfig({
          MONITOR_LOCATIONS: catalogue.join(','),
          CHECK_LOCATIONS: checkLocations,
          DNS_SERVERS: (await testDnsServer()).server,
        }),
        databaseUrl: (await testDatabase()).url,
      },
      { jobs: false, checkWorker, logger: pino({ level: 'silent' }) },
    );
  let apiOnly: RunningApplication;
  let checkProcess: RunningApplication | undefined;
  before(async () => {
    apiOnly = await start('none', false);
  });
  after(async () => {
    await checkProcess?.stop();
    await apiOnly?.stop();
  });

  const createdLocations = async (token: string, customerId: number, body: Record<string, unknown> = {}) => {
    const response = await fetch(`${apiOnly.url}/api/websites`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customerId, url: PUBLIC_URL, status: 'paused', ...body }),
    });
    const created = (await response.json()) as { locations: string[] };
    expect(response.status, JSON.stringify(created)).to.equal(201);
    return created.locations;
  };

  it('gets the locations a live check process serves, and the whole catalogue while none is live', async () => {
    const org = await anOrganization('locations');
    const pkg = await aMonitorPackage(org.token);
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    expect(await createdLocations(org.token, customer.id), 'no process serves the catalogue yet').to.deep.equal(catalogue);

    checkProcess = await start(catalogue[1]!, true);
    // Its worker registers in the schedule as it starts, just after the process begins listening.
    const served = new SqlServedLocations(apiOnly.database.sql);
    const deadline = Date.now() + 10_000;
    while (!(await served.live(new Date())).includes(catalogue[1]!)) {
      if (Date.now() > deadline) expect.fail('the check process never registered');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await createdLocations(org.token, customer.id), 'the served location only').to.deep.equal([catalogue[1]]);
    expect(await createdLocations(org.token, customer.id, { locations: [catalogue[0]] }), 'sent locations stand').to.deep.equal([
      catalogue[0],
    ]);

    await checkProcess.stop();
    checkProcess = undefined;
    expect(await createdLocations(org.token, customer.id), 'a process that stopped serves nothing').to.deep.equal(catalogue);
  });
});
