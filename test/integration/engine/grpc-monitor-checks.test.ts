import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitor, aMonitoredCustomer, kindSample } from '../../support/monitoring-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { anEngineFor, holdBackFromSchedule, runUntilRecorded } from '../../support/engine-runs';
import { testServer } from '../../support/test-server';
import { sql } from '../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';

/**
 * A gRPC monitor end to end: created through the API, checked by the real engine (the registry's
 * gRPC checker calling the health service of a grpc-js server on loopback), the result read back
 * under its kind's path.
 */
describe('gRPC monitor: created, checked by the engine against a grpc-js health service', () => {
  const server = new grpc.Server();
  const health = new HealthImplementation({ 'shop.Checkout': 'SERVING' });
  let port = 0;
  before(async () => {
    await useLoopbackChecks({});
    health.addToServer(server as never);
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
  });
  after(() => server.forceShutdown());

  it('asks for the stored service and follows its status', async () => {
    const org = await anOrganization('grpc-engine');
    const customer = await aMonitoredCustomer(org.token);
    const monitor = await aMonitor(org.token, 'grpc', {
      ...kindSample('grpc'),
      customerId: customer.id,
      locations: [LOCATION],
      timeoutSeconds: 2,
      transport: 'plain',
      serviceName: 'shop.Checkout',
    });
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET hostname = '127.0.0.1', port = ${port} WHERE id = ${monitor.id}`);
    await holdBackFromSchedule(monitor.id);
    const base = `/api/monitors/grpc/${monitor.publicId}`;
    const engine = await anEngineFor(new Set([monitor.id]), [LOCATION]);
    const checkNow = async () => {
      expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
      await runUntilRecorded(engine, 1);
      return (await api('GET', `${base}/check-history`, { token: org.token })).body.items[0];
    };

    const up = await checkNow();
    expect(up, JSON.stringify(up)).to.include({ location: LOCATION, status: 'up' });
    expect(up.evidence).to.include({ banner: 'SERVING', tls: false });

    health.setStatus('shop.Checkout', 'NOT_SERVING');
    const down = await checkNow();
    expect(down).to.include({
      status: 'down',
      reasonCode: 'unexpectedStatus',
      message: 'The health status of "shop.Checkout" is NOT_SERVING',
    });
  });
});
