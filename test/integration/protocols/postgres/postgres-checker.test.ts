import { expect } from 'chai';
import { PgPostgresChecker } from '../../../../src/infrastructure/protocols/postgres/pg-postgres-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { PostgresCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';
import { aPostgresLogin, withPostgresTls, type PostgresLogin } from '../../../support/peers/postgres-login';
import { testCertificates } from '../../../support/peers/certificates';
import { aSilentTcpServer, freeLoopbackPort } from '../../../support/peers/server-process';

describe('PostgreSQL checker against the real PostgreSQL of the test run', function () {
  this.timeout(60_000);
  let login: PostgresLogin;
  const checker = new PgPostgresChecker(new LoopbackTargetPolicy(), new SharedTlsContext());
  const request = (overrides: Partial<PostgresCheckRequest> = {}): PostgresCheckRequest => ({
    kind: 'postgres',
    host: '127.0.0.1',
    port: login.port,
    ssl: 'disable',
    credentials: { username: login.username, password: login.password },
    database: login.database,
    query: 'SELECT 1',
    expectedResult: null,
    timeoutSeconds: 3,
    ...overrides,
  });
  before(async () => {
    login = await aPostgresLogin();
  });
  after(() => login?.drop());

  it('is up when the login is accepted and the query answers the expected value, which the evidence shows', async () => {
    const result = await checker.check(request({ expectedResult: '1' }), checkContext(3_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence).to.deep.equal({
      target: { host: '127.0.0.1', address: '127.0.0.1', port: login.port },
      authenticated: true,
      banner: '1',
    });
    const { dnsMs, connectMs, firstByteMs, totalMs } = result.timings;
    expect(dnsMs).to.equal(null);
    expect(connectMs! <= firstByteMs! && firstByteMs! <= totalMs, JSON.stringify(result.timings)).to.equal(true);
  });

  it('compares the first column of the first row as the server writes it (text), through a name the policy vets', async () => {
    const text = await checker.check(
      request({ host: 'localhost', query: 'SELECT text, 2 FROM greeting', expectedResult: 'hello postgres' }),
      checkContext(3_000),
    );
    expect(text.status, JSON.stringify(text.reason)).to.equal('up');
    expect(text.timings.dnsMs).to.be.a('number');
    const typed = await checker.check(request({ query: "SELECT true, DATE '2026-01-02'", expectedResult: 't' }), checkContext(3_000));
    expect(typed.status, JSON.stringify(typed.reason)).to.equal('up');
  });

  it('is down with assertionFailed when the result differs or there is no row', async () => {
    const other = await checker.check(request({ query: 'SELECT 2', expectedResult: '1' }), checkContext(3_000));
    expect(other.reason).to.deep.equal({ status: 'down', code: 'assertionFailed', message: 'The query returned "2", not "1"' });
    const none = await checker.check(request({ query: 'SELECT 1 WHERE false', expectedResult: '1' }), checkContext(3_000));
    expect(none.reason).to.deep.equal({ status: 'down', code: 'assertionFailed', message: 'The query returned no rows (expected "1")' });
  });

  it('is down with authenticationFailed when the password is wrong', async () => {
    const result = await checker.check(request({ credentials: { username: login.username, password: 'wrong' } }), checkContext(3_000));
    expect(result.reason?.code).to.equal('authenticationFailed');
    expect(result.reason?.message).to.include('password authentication failed');
  });

  it("is down with the server's words when the database does not exist or the query fails", async () => {
    const missing = await checker.check(request({ database: 'no_such_database' }), checkContext(3_000));
    expect(missing.reason?.code).to.equal('protocolError');
    expect(missing.reason?.message).to.include('does not exist');
    const failing = await checker.check(request({ query: 'SELECT * FROM no_such_table' }), checkContext(3_000));
    expect(failing.reason?.code).to.equal('protocolError');
    expect(failing.reason?.message).to.match(/^The query failed: relation "no_such_table" does not exist/);
  });

  it('is down with a TLS failure when TLS is required and the server has none', async () => {
    const result = await checker.check(request({ ssl: 'require' }), checkContext(3_000));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'tlsHandshakeFailed',
      message: 'The server does not support SSL connections',
    });
  });

  it('is down at the deadline when the server accepts the connection and never answers', async () => {
    const silent = await aSilentTcpServer();
    try {
      const started = Date.now();
      const result = await checker.check(request({ port: silent.port, timeoutSeconds: 1 }), checkContext(1_000));
      expect(result.reason?.code).to.equal('timeout');
      expect(Date.now() - started).to.be.below(1_900);
    } finally {
      await silent.close();
    }
  });

  it('is down with connectionRefused on a closed port', async () => {
    const result = await checker.check(request({ port: await freeLoopbackPort() }), checkContext(3_000));
    expect(result.reason?.code).to.equal('connectionRefused');
  });

  it('refuses a target the policy rejects, connecting nowhere', async () => {
    const result = await new PgPostgresChecker(new RejectingTargetPolicy(), new SharedTlsContext()).check(request(), checkContext(3_000));
    expect(result.reason?.code).to.equal('targetRejected');
    expect(result.evidence.target?.address).to.equal(null);
  });

  describe('with TLS turned on in the server', () => {
    let turnOff: (() => Promise<void>) | undefined;
    before(async function () {
      // the run's own PostgreSQL only: an external one (DATABASE_URL) is not the test's to reconfigure
      if (process.env.DATABASE_URL) this.skip();
      turnOff = await withPostgresTls(testCertificates().valid);
    });
    after(() => turnOff?.());

    it('speaks TLS: require encrypts (the certificate in the evidence), verify-full also verifies the chain and name', async () => {
      const trusting = new PgPostgresChecker(new LoopbackTargetPolicy(), new SharedTlsContext([testCertificates().ca.cert]));
      const required = await trusting.check(request({ ssl: 'require', expectedResult: '1' }), checkContext(3_000));
      expect(required.status, JSON.stringify(required.reason)).to.equal('up');
      expect(required.evidence).to.include({ tls: true, authenticated: true });
      expect(required.evidence.certificate?.subject).to.equal('localhost');
      expect(required.timings.tlsMs).to.be.a('number');
      const verified = await trusting.check(request({ host: 'localhost', ssl: 'verify-full' }), checkContext(3_000));
      expect(verified.status, JSON.stringify(verified.reason)).to.equal('up');
      expect(verified.evidence.certificate?.authorized).to.equal(true);
    });

    it('is down with sslInvalid in verify-full when the chain is not trusted (require still up)', async () => {
      const result = await checker.check(request({ ssl: 'verify-full' }), checkContext(3_000));
      expect(result.reason?.code).to.equal('sslInvalid');
      expect(result.evidence.certificate?.authorized).to.equal(false);
      const required = await checker.check(request({ ssl: 'require' }), checkContext(3_000));
      expect(required.status, JSON.stringify(required.reason)).to.equal('up');
    });
  });
});
