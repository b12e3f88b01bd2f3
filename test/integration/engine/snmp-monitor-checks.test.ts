import { expect } from 'chai';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitor, aMonitoredCustomer, kindSample } from '../../support/monitoring-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { anEngineFor, holdBackFromSchedule, runUntilRecorded } from '../../support/engine-runs';
import { testServer } from '../../support/test-server';
import { anSnmpdAgent, type SnmpdAgent } from '../../support/peers/snmpd-agent';
import { sql } from '../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';
const COMMUNITY = 'engine-c0mmunity';

/**
 * An SNMP monitor end to end: created through the API with its community as a write-only
 * credential, checked by the real engine (the credential decrypted into the check, the registry's
 * SNMP checker asking Debian's snmpd on loopback), the result read back under its kind's path.
 */
describe('SNMP monitor: created with a write-only community, checked by the engine against snmpd', function () {
  this.timeout(60_000);
  let agent: SnmpdAgent;
  before(async () => {
    await useLoopbackChecks({});
    agent = await anSnmpdAgent({ community: COMMUNITY, location: 'engine room', users: [] });
  });
  after(async () => agent?.stop());

  it('asks with the stored community and judges the value; the community is never returned; tcp checkMode is refused', async () => {
    const org = await anOrganization('snmp-engine');
    const customer = await aMonitoredCustomer(org.token);
    const monitor = await aMonitor(org.token, 'snmp', {
      ...kindSample('snmp'),
      customerId: customer.id,
      locations: [LOCATION],
      timeoutSeconds: 2,
      oid: '1.3.6.1.2.1.1.6.0',
      expectedValue: 'engine',
      comparison: 'contains',
      credentials: { username: 'v2c', password: COMMUNITY },
    });
    expect(monitor).to.include({ hasCredentials: true, checkMode: 'protocol', effectivePort: 161 });
    expect(JSON.stringify(monitor)).not.to.include(COMMUNITY);
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET hostname = '127.0.0.1', port = ${agent.port} WHERE id = ${monitor.id}`);
    await holdBackFromSchedule(monitor.id);
    const base = `/api/monitors/snmp/${monitor.publicId}`;
    const engine = await anEngineFor(new Set([monitor.id]), [LOCATION]);

    expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
    await runUntilRecorded(engine, 1);
    const up = await api('GET', `${base}/check-history`, { token: org.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(200);
    expect(up.body.items[0], JSON.stringify(up.body.items[0])).to.include({ location: LOCATION, status: 'up' });
    expect(up.body.items[0].evidence.banner).to.equal('1.3.6.1.2.1.1.6.0 = engine room');

    const refused = await api('PATCH', base, { token: org.token, body: { checkMode: 'tcp' } });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ code: 'invalidCheckMode', allowed: ['protocol'] });

    const patched = await api('PATCH', base, { token: org.token, body: { credentials: { username: 'v2c', password: 'guess' } } });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
    await runUntilRecorded(engine, 1);
    const down = await api('GET', `${base}/check-history`, { token: org.token });
    expect(down.body.items.map((i: { status: string }) => i.status)).to.deep.equal(['down', 'up']);
    expect(down.body.items[0]).to.include({
      reasonCode: 'timeout',
      message: 'No answer within 2 s (an agent does not answer a wrong community)',
    });
  });
});
