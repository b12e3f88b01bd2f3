import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitorPackage, aMonitoredCustomer, PUBLIC_URL } from '../../../support/monitoring-fixtures';
import { useLoopbackChecks } from '../../../support/loopback-checks';
import { holdBackFromSchedule, triggeredCheck } from '../../../support/engine-runs';
import { LoginSite } from '../../../support/peers/login-site';
import { testConfig, testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';
const PNG_MAGIC = '89504e470d0a1a0a';
const LOG_IN = 'fill #email "ann@shop.test"\nfill #password "s3cret"\nclick #submit';

async function anOrgWithCustomer(name: string) {
  const org = await anOrganization(name);
  const pkg = await aMonitorPackage(org.token);
  const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
  return { org, customer, token: org.token };
}

/** The raw bytes of a screenshot (the JSON test client would decode them as text). */
async function fetchScreenshot(token: string, websiteId: string, screenshotId: string) {
  const { url } = await testServer();
  const response = await fetch(`${url}/api/websites/${websiteId}/screenshots/${screenshotId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('scripted-browser websites: scripts validated on write, scenarios run by the engine, failure screenshots served', () => {
  const site = new LoginSite();
  const monitorIds = new Set<number>();

  before(async () => {
    await site.start();
    await useLoopbackChecks({ browser: { executablePath: testConfig().browserExecutablePath, maxConcurrent: 2, stepWaitMs: 1_000 } });
  });
  after(() => site.stop());

  /** A scenario created through the API, then pointed at the loopback site (the API only admits public URLs). */
  async function aScenario(token: string, customerId: number, script: string) {
    const created = await api('POST', '/api/websites', {
      token,
      body: { customerId, monitoringType: 'scripted_browser', url: PUBLIC_URL, script, locations: [LOCATION], timeoutSeconds: 10 },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET url = ${site.url()} WHERE id = ${created.body.id}`);
    const schedule = await database.sql.query<{ location: string }>(
      sql`SELECT location FROM check_schedule WHERE monitor_id = ${created.body.id}`,
    );
    expect(
      schedule.map((row) => row.location),
      'scenarios are scheduled like page checks',
    ).to.deep.equal([LOCATION]);
    await holdBackFromSchedule(created.body.id);
    monitorIds.add(created.body.id);
    return created.body as { id: number; publicId: string };
  }

  const runNow = (token: string, publicId: string) => triggeredCheck(token, publicId, monitorIds, [LOCATION]);

  it('refuses scripts that do not parse with 400 validationFailed on script, naming the line (POST and PATCH)', async () => {
    const { token, customer } = await anOrgWithCustomer('scenario-validation');
    const body = { customerId: customer.id, monitoringType: 'scripted_browser', url: PUBLIC_URL };
    const unknown = await api('POST', '/api/websites', { token, body: { ...body, script: 'goto /login\nawait page.click("#go")' } });
    expectError(unknown, 400, 'validationFailed');
    expect(unknown.body.data.issues).to.deep.equal([
      {
        path: ['script'],
        code: 'custom',
        message:
          'Line 2: unknown step "await" (steps: goto, click, fill, press, waitFor, expectText, expectNoText, expectTitle, expectUrl, wait)',
      },
    ]);
    const tooLong = await api('POST', '/api/websites', { token, body: { ...body, script: 'wait 60000' } });
    expect(tooLong.body.data.issues[0]).to.include({ message: 'Line 1: wait takes milliseconds, 1 to 10000' });

    const created = await api('POST', '/api/websites', { token, body: { ...body, script: 'expectText "ok"' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const patched = await api('PATCH', `/api/websites/${created.body.publicId}`, { token, body: { script: '# fine\nclick "#open' } });
    expectError(patched, 400, 'validationFailed');
    expect(patched.body.data.issues[0]).to.include({ message: 'Line 2: a quoted text is not closed (missing ")' });
    expect((await api('GET', `/api/websites/${created.body.publicId}`, { token })).body.script, 'unchanged').to.equal('expectText "ok"');
  });

  it('runs a passing scenario from the schedule: up, with the steps in the evidence', async () => {
    const { token, customer } = await anOrgWithCustomer('scenario-up');
    const website = await aScenario(token, customer.id, `${LOG_IN}\nexpectText "Welcome back, Ann"`);
    const result = await runNow(token, website.publicId);
    expect(result, JSON.stringify(result)).to.include({ status: 'up', location: LOCATION });
  });

  it('records a failing scenario as down with the step and a screenshot served as PNG to its tenant only', async () => {
    const { token, customer } = await anOrgWithCustomer('scenario-down');
    const website = await aScenario(token, customer.id, `${LOG_IN}\nexpectText "Order history"`);
    const result = await runNow(token, website.publicId);
    expect(result).to.include({
      status: 'down',
      reasonCode: 'keywordMissing',
      message: 'Line 4 (expectText "Order history"): the page does not show "Order history"',
    });
    const screenshotId = result.evidence.browser.screenshotId as string;
    expect(screenshotId).to.match(/^[0-9a-f-]{36}$/);

    for (const ref of [website.publicId, String(website.id)]) {
      const shot = await fetchScreenshot(token, ref, screenshotId);
      expect(shot.status).to.equal(200);
      expect(shot.type).to.equal('image/png');
      expect(shot.bytes.subarray(0, 8).toString('hex')).to.equal(PNG_MAGIC);
    }

    expectError(await api('GET', `/api/websites/${website.publicId}/screenshots/not-a-uuid`, { token }), 400, 'invalidScreenshotId');
    expectError(await api('GET', `/api/websites/${website.publicId}/screenshots/${randomUUID()}`, { token }), 404, 'screenshotNotFound');
    const other = await anOrgWithCustomer('scenario-other');
    expectError(
      await api('GET', `/api/websites/${website.publicId}/screenshots/${screenshotId}`, { token: other.token }),
      404,
      'websiteNotFound',
    );
    const theirs = await aScenario(other.token, other.customer.id, 'expectText "ok"');
    expectError(
      await api('GET', `/api/websites/${theirs.publicId}/screenshots/${screenshotId}`, { token: other.token }),
      404,
      'screenshotNotFound',
    );
  });

  it('fails by policy when the scenario leads to a target the policy refuses', async () => {
    const { token, customer } = await anOrgWithCustomer('scenario-policy');
    const website = await aScenario(token, customer.id, 'goto http://10.20.30.40/internal');
    const result = await runNow(token, website.publicId);
    expect(result).to.include({
      status: 'down',
      reasonCode: 'targetRejected',
      message: 'Line 1 (goto http://10.20.30.40/internal): 10.20.30.40 is not a public address (nonPublicAddress)',
    });
  });
});
