import { expect } from 'chai';
import mqtt from 'mqtt';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitor, aMonitoredCustomer, kindSample } from '../../support/monitoring-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { anEngineFor, holdBackFromSchedule, runUntilRecorded } from '../../support/engine-runs';
import { testServer } from '../../support/test-server';
import { testCertificates } from '../../support/peers/certificates';
import { aMosquittoBroker, type MosquittoBroker } from '../../support/peers/mosquitto-broker';
import { sql } from '../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';
const LOGIN = { username: 'probe', password: 'engine-s3cret' };

/**
 * An MQTT monitor end to end: created through the API with a write-only login, checked by the real
 * engine (the login decrypted into the check, the registry's MQTT checker on Debian's mosquitto on
 * loopback), the result read back under its kind's path; tcp checkMode is a bare port check.
 */
describe('MQTT monitor: created with a write-only login, checked by the engine against mosquitto', function () {
  this.timeout(60_000);
  let broker: MosquittoBroker;
  before(async () => {
    await useLoopbackChecks({});
    broker = await aMosquittoBroker({ [LOGIN.username]: LOGIN.password }, ['plant/#'], testCertificates().valid);
    const client = await mqtt.connectAsync({ host: '127.0.0.1', port: broker.port, ...LOGIN, reconnectPeriod: 0 });
    await client.publishAsync('plant/1/status', 'online', { retain: true, qos: 1 });
    await client.endAsync();
  });
  after(async () => broker?.stop());

  it('logs in with the stored login, reads the topic, and falls back to a bare port check in tcp mode', async () => {
    const org = await anOrganization('mqtt-engine');
    const customer = await aMonitoredCustomer(org.token);
    const monitor = await aMonitor(org.token, 'mqtt', {
      ...kindSample('mqtt'),
      customerId: customer.id,
      locations: [LOCATION],
      timeoutSeconds: 2,
      transport: 'plain',
      topic: 'plant/1/status',
      expectedMessage: 'online',
      credentials: LOGIN,
    });
    expect(monitor).to.include({ hasCredentials: true, checkMode: 'protocol', effectivePort: 1883 });
    expect(JSON.stringify(monitor)).not.to.include(LOGIN.password);
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET hostname = '127.0.0.1', port = ${broker.port} WHERE id = ${monitor.id}`);
    await holdBackFromSchedule(monitor.id);
    const base = `/api/monitors/mqtt/${monitor.publicId}`;
    const engine = await anEngineFor(new Set([monitor.id]), [LOCATION]);
    const checkNow = async () => {
      expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
      await runUntilRecorded(engine, 1);
      return (await api('GET', `${base}/check-history`, { token: org.token })).body.items[0];
    };

    const up = await checkNow();
    expect(up, JSON.stringify(up)).to.include({ status: 'up' });
    expect(up.evidence).to.include({ banner: 'online', authenticated: true, tls: false });

    expect((await api('PATCH', base, { token: org.token, body: { credentials: { ...LOGIN, password: 'wrong' } } })).status).to.equal(200);
    const refused = await checkNow();
    expect(refused).to.include({ status: 'down', reasonCode: 'authenticationFailed' });

    const tcp = await api('PATCH', base, { token: org.token, body: { checkMode: 'tcp' } });
    expect(tcp.status, JSON.stringify(tcp.body)).to.equal(200);
    expect(tcp.body).to.include({ checkMode: 'tcp', hasCredentials: false });
    const bare = await checkNow();
    expect(bare, JSON.stringify(bare)).to.include({ status: 'up' });
    expect(bare.evidence).not.to.have.property('authenticated');
  });
});
