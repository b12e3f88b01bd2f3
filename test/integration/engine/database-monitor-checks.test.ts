import { expect } from 'chai';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitor, aMonitoredCustomer } from '../../support/monitoring-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { anEngineFor, holdBackFromSchedule, runUntilRecorded } from '../../support/engine-runs';
import { testServer } from '../../support/test-server';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { startRedisPeer, type RedisPeer } from '../../support/peers/redis-peer';
import { aPostgresLogin, type PostgresLogin } from '../../support/peers/postgres-login';
import { startMariadbPeer, type MariadbPeer } from '../../support/peers/mariadb-peer';

const LOCATION = 'eu-west';

/**
 * A database monitor end to end: created through the API (its credentials write-only), pointed at
 * a real server on loopback, checked now by the real engine, the result read back under its kind's
 * path; then changed so that the check fails, and read back down with its reason.
 */
async function createCheckAndBreak(
  type: 'redis' | 'postgres' | 'mysql',
  body: Record<string, unknown>,
  port: number,
  breaking: Record<string, unknown>,
): Promise<{ up: Record<string, any>; down: Record<string, any>; monitor: Record<string, any> }> {
  const org = await anOrganization(`${type}-engine`);
  const customer = await aMonitoredCustomer(org.token);
  const monitor = await aMonitor(org.token, type, {
    hostname: 'mail.monitor-fixture.com', // a name the test DNS answers
    customerId: customer.id,
    locations: [LOCATION],
    timeoutSeconds: 5,
    ...body,
  });
  // The API admits public targets only; the engine's loopback policy reaches the test's server.
  const { database } = await testServer();
  await database.sql.query(sql`UPDATE monitors SET hostname = '127.0.0.1', port = ${port} WHERE id = ${monitor.id}`);
  await holdBackFromSchedule(monitor.id);
  const base = `/api/monitors/${type}/${monitor.publicId}`;
  const engine = await anEngineFor(new Set([monitor.id]), [LOCATION]);
  expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
  await runUntilRecorded(engine, 1);
  const up = await api('GET', `${base}/check-history`, { token: org.token });
  expect(up.status, JSON.stringify(up.body)).to.equal(200);
  const patched = await api('PATCH', base, { token: org.token, body: breaking });
  expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
  expect(JSON.stringify(patched.body)).to.not.include('secret');
  expect((await api('POST', `${base}/trigger-check`, { token: org.token })).status).to.equal(202);
  await runUntilRecorded(engine, 1);
  const down = await api('GET', `${base}/check-history`, { token: org.token });
  return { up: up.body.items[0], down: down.body.items[0], monitor };
}

describe('database monitors: created, checked by the engine, their results read back', function () {
  this.timeout(90_000);
  before(() => useLoopbackChecks({}));

  describe('Redis', () => {
    let redis: RedisPeer;
    before(async () => {
      redis = await startRedisPeer();
    });
    after(() => redis?.stop());

    it('logs in with the stored (write-only) credentials, sends the stored command and judges its reply', async () => {
      const { up, down, monitor } = await createCheckAndBreak(
        'redis',
        { command: 'GET greeting', expectedReply: 'hello', credentials: { username: 'default', password: redis.password } },
        redis.port,
        { credentials: { username: 'default', password: 'not-the-secret' } },
      );
      expect(monitor).to.include({ command: 'GET greeting', expectedReply: 'hello', sslMode: 'disable', hasCredentials: true });
      expect(JSON.stringify(monitor)).to.not.include(redis.password);
      expect(up, JSON.stringify(up)).to.deep.include({ location: LOCATION, status: 'up' });
      expect(up.evidence).to.include({ banner: 'hello redis', authenticated: true });
      expect(down).to.deep.include({ status: 'down', reasonCode: 'authenticationFailed', message: 'The server refused the credentials' });
    });
  });

  describe('PostgreSQL', () => {
    let login: PostgresLogin;
    before(async () => {
      login = await aPostgresLogin();
    });
    after(() => login?.drop());

    it('logs in to the stored database, runs the stored query and compares its result', async () => {
      const credentials = { username: login.username, password: login.password };
      const { up, down, monitor } = await createCheckAndBreak(
        'postgres',
        { database: login.database, query: 'SELECT text FROM greeting', expectedResult: 'hello postgres', credentials },
        login.port,
        { expectedResult: 'goodbye' },
      );
      expect(monitor).to.include({ database: login.database, hasCredentials: true, checkMode: 'protocol' });
      expect(JSON.stringify(monitor)).to.not.include(login.password);
      expect(up, JSON.stringify(up)).to.deep.include({ location: LOCATION, status: 'up' });
      expect(up.evidence).to.include({ banner: 'hello postgres', authenticated: true });
      expect(down).to.deep.include({
        status: 'down',
        reasonCode: 'assertionFailed',
        message: 'The query returned "hello postgres", not "goodbye"',
      });
    });
  });

  describe('MySQL / MariaDB', () => {
    let mariadb: MariadbPeer;
    before(async () => {
      mariadb = await startMariadbPeer();
    });
    after(() => mariadb?.stop());

    it('logs in over TLS, runs the stored query and compares its result', async () => {
      const { up, down, monitor } = await createCheckAndBreak(
        'mysql',
        { database: 'shop', query: 'SELECT COUNT(*) FROM greeting', expectedResult: '1', sslMode: 'require', credentials: mariadb.user },
        mariadb.port,
        { query: 'SELECT COUNT(*) FROM missing' },
      );
      expect(monitor).to.include({ query: 'SELECT COUNT(*) FROM greeting', sslMode: 'require', hasCredentials: true });
      expect(JSON.stringify(monitor)).to.not.include(mariadb.user.password);
      expect(up, JSON.stringify(up)).to.deep.include({ location: LOCATION, status: 'up' });
      expect(up.evidence).to.include({ banner: '1', authenticated: true, tls: true });
      expect(down).to.deep.include({ status: 'down', reasonCode: 'protocolError' });
      expect(down.message).to.match(/^The query failed: Table 'shop.missing' doesn't exist/);
    });
  });
});
