import { expect } from 'chai';
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitor, aMonitoredCustomer, kindSample } from '../../support/monitoring-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { anEngineFor, holdBackFromSchedule, runUntilRecorded } from '../../support/engine-runs';
import { testServer } from '../../support/test-server';
import { sql } from '../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';

/**
 * A UDP monitor end to end: created through the API from its descriptor, checked now by the real
 * engine (its stored settings become the check, the registry's UDP checker dials a loopback peer),
 * the result read back under its kind's path.
 */
describe('UDP monitor: created, checked by the engine, its result read back', () => {
  const peer = dgram.createSocket('udp4');
  let peerPort = 0;
  before(async () => {
    await useLoopbackChecks({});
    peer.on('message', (message, from) => peer.send(Buffer.from(`pong ${String(message)}`), from.port, from.address));
    await new Promise<void>((resolve) => peer.bind(0, '127.0.0.1', resolve));
    peerPort = (peer.address() as AddressInfo).port;
  });
  after(() => peer.close());

  it('sends the stored payload and judges the reply by the stored expectedReply', async () => {
    const org = await anOrganization('udp-engine');
    const customer = await aMonitoredCustomer(org.token);
    const monitor = await aMonitor(org.token, 'udp', {
      ...kindSample('udp'),
      customerId: customer.id,
      locations: [LOCATION],
      timeoutSeconds: 2,
      payload: 'hello',
      expectedReply: 'pong hello',
    });
    // The API admits public targets only; the engine's loopback policy reaches the test's peer.
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET hostname = '127.0.0.1', port = ${peerPort} WHERE id = ${monitor.id}`);
    await holdBackFromSchedule(monitor.id);
    const base = `/api/monitors/udp/${monitor.publicId}`;
    const engine = await anEngineFor(new Set([monitor.id]), [LOCATION]);

    expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
    await runUntilRecorded(engine, 1);
    const up = await api('GET', `${base}/check-history`, { token: org.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(200);
    expect(up.body.items[0], JSON.stringify(up.body.items[0])).to.include({ location: LOCATION, status: 'up' });
    expect(up.body.items[0].evidence.banner).to.equal('pong hello');

    const patched = await api('PATCH', base, { token: org.token, body: { expectedReply: 'PONG' } });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body).to.include({ payload: 'hello', expectedReply: 'PONG' });
    expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
    await runUntilRecorded(engine, 1);
    const down = await api('GET', `${base}/check-history`, { token: org.token });
    expect(down.body.items.map((i: { status: string }) => i.status)).to.deep.equal(['down', 'up']);
    expect(down.body.items[0]).to.deep.include({
      reasonCode: 'keywordMissing',
      message: 'The reply does not contain "PONG"',
      evidence: { banner: 'pong hello', target: { host: '127.0.0.1', port: peerPort, address: '127.0.0.1' } },
    });
  });
});
