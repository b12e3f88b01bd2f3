import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitor, aMonitoredCustomer, kindSample } from '../../support/monitoring-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { anEngineFor, holdBackFromSchedule, runUntilRecorded } from '../../support/engine-runs';
import { testServer } from '../../support/test-server';
import { closeNow, listenOnLoopback } from '../../support/peers/loopback-listen';
import { sql } from '../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';

/**
 * A WebSocket monitor end to end: created through the API from its descriptor, checked now by the
 * real engine (its stored settings become the check, the registry's WebSocket checker upgrades on a
 * loopback `ws` server), the result read back under its kind's path.
 */
describe('WebSocket monitor: created, checked by the engine, its result read back', () => {
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  const paths: string[] = [];
  let port = 0;
  before(async () => {
    await useLoopbackChecks({});
    wss.on('connection', (socket, req) => {
      paths.push(req.url ?? '');
      socket.on('message', (data) => socket.send(`pong ${String(data)}`));
    });
    await listenOnLoopback(server);
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await closeNow(server);
  });

  it('upgrades on the stored path, sends the stored message and judges the reply by the stored expectedMessage', async () => {
    const org = await anOrganization('websocket-engine');
    const customer = await aMonitoredCustomer(org.token);
    const monitor = await aMonitor(org.token, 'websocket', {
      ...kindSample('websocket'),
      customerId: customer.id,
      locations: [LOCATION],
      timeoutSeconds: 2,
      transport: 'plain',
      path: '/live?v=2',
      message: 'hello',
      expectedMessage: 'pong hello',
    });
    expect(monitor).to.include({ transport: 'plain', effectivePort: 80 });
    // The API admits public targets only; the engine's loopback policy reaches the test's server.
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET hostname = '127.0.0.1', port = ${port} WHERE id = ${monitor.id}`);
    await holdBackFromSchedule(monitor.id);
    const base = `/api/monitors/websocket/${monitor.publicId}`;
    const engine = await anEngineFor(new Set([monitor.id]), [LOCATION]);

    expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
    await runUntilRecorded(engine, 1);
    const up = await api('GET', `${base}/check-history`, { token: org.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(200);
    expect(up.body.items[0], JSON.stringify(up.body.items[0])).to.include({ location: LOCATION, status: 'up' });
    expect(up.body.items[0].evidence).to.include({ banner: 'pong hello', tls: false });
    expect(paths).to.deep.equal(['/live?v=2']);

    const patched = await api('PATCH', base, { token: org.token, body: { expectedMessage: 'PONG' } });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body).to.include({ message: 'hello', expectedMessage: 'PONG', path: '/live?v=2' });
    expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
    await runUntilRecorded(engine, 1);
    const down = await api('GET', `${base}/check-history`, { token: org.token });
    expect(down.body.items.map((i: { status: string }) => i.status)).to.deep.equal(['down', 'up']);
    expect(down.body.items[0]).to.deep.include({
      reasonCode: 'keywordMissing',
      message: 'The first message does not contain "PONG"',
      evidence: { banner: 'pong hello', tls: false, target: { host: '127.0.0.1', port, address: '127.0.0.1' } },
    });
  });
});
