import { expect } from 'chai';
import { Mysql2MysqlChecker } from '../../../../src/infrastructure/protocols/mysql/mysql2-mysql-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { MysqlCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';
import { testCertificates } from '../../../support/peers/certificates';
import { startMariadbPeer, type MariadbPeer } from '../../../support/peers/mariadb-peer';
import { aSilentTcpServer, freeLoopbackPort } from '../../../support/peers/server-process';

describe('MySQL checker against a real MariaDB on loopback', function () {
  this.timeout(60_000);
  let mariadb: MariadbPeer;
  const checker = new Mysql2MysqlChecker(new LoopbackTargetPolicy(), new SharedTlsContext([testCertificates().ca.cert]));
  const request = (overrides: Partial<MysqlCheckRequest> = {}): MysqlCheckRequest => ({
    kind: 'mysql',
    host: '127.0.0.1',
    port: mariadb.port,
    ssl: 'disable',
    credentials: mariadb.user,
    database: 'shop',
    query: 'SELECT 1',
    expectedResult: null,
    timeoutSeconds: 3,
    ...overrides,
  });
  before(async () => {
    mariadb = await startMariadbPeer();
  });
  after(() => mariadb?.stop());

  it('is up when the login is accepted and the query answers the expected value, which the evidence shows', async () => {
    const result = await checker.check(request({ expectedResult: '1' }), checkContext(3_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence).to.deep.equal({
      target: { host: '127.0.0.1', address: '127.0.0.1', port: mariadb.port },
      authenticated: true,
      banner: '1',
    });
    const { dnsMs, connectMs, firstByteMs, totalMs } = result.timings;
    expect(dnsMs).to.equal(null);
    expect(connectMs! <= firstByteMs! && firstByteMs! <= totalMs, JSON.stringify(result.timings)).to.equal(true);
  });

  it('compares the first column of the first row as the server writes it (text), through a name the policy vets', async () => {
    const text = await checker.check(
      request({ host: 'localhost', query: 'SELECT text, 2 FROM greeting', expectedResult: 'hello mariadb' }),
      checkContext(3_000),
    );
    expect(text.status, JSON.stringify(text.reason)).to.equal('up');
    expect(text.timings.dnsMs).to.be.a('number');
    const typed = await checker.check(
      request({ database: null, query: "SELECT 1.50, DATE '2026-01-02'", expectedResult: '1.50' }),
      checkContext(3_000),
    );
    expect(typed.status, JSON.stringify(typed.reason)).to.equal('up');
  });

  it('is down with assertionFailed when the result differs or there is no row', async () => {
    const other = await checker.check(request({ query: 'SELECT 2', expectedResult: '1' }), checkContext(3_000));
    expect(other.reason).to.deep.equal({ status: 'down', code: 'assertionFailed', message: 'The query returned "2", not "1"' });
    const none = await checker.check(request({ query: 'SELECT 1 FROM greeting WHERE false', expectedResult: '1' }), checkContext(3_000));
    expect(none.reason).to.deep.equal({ status: 'down', code: 'assertionFailed', message: 'The query returned no rows (expected "1")' });
  });

  it("is down with authenticationFailed when the password is wrong or the database is not the user's", async () => {
    const wrong = await checker.check(request({ credentials: { username: 'monitor', password: 'wrong' } }), checkContext(3_000));
    expect(wrong.reason?.code).to.equal('authenticationFailed');
    expect(wrong.reason?.message).to.match(/Access denied for user 'monitor'/);
    const foreign = await checker.check(request({ database: 'mysql' }), checkContext(3_000));
    expect(foreign.reason?.code).to.equal('authenticationFailed');
  });

  it("is down with the server's words when the query fails", async () => {
    const result = await checker.check(request({ query: 'SELECT * FROM no_such_table' }), checkContext(3_000));
    expect(result.reason?.code).to.equal('protocolError');
    expect(result.reason?.message).to.match(/^The query failed: Table 'shop.no_such_table' doesn't exist/);
  });

  it('speaks TLS: require encrypts (the certificate in the evidence), verify-full also verifies the chain and name', async () => {
    const required = await checker.check(request({ ssl: 'require', expectedResult: '1' }), checkContext(3_000));
    expect(required.status, JSON.stringify(required.reason)).to.equal('up');
    expect(required.evidence.tls).to.equal(true);
    expect(required.evidence.certificate?.subject).to.equal('localhost');
    const verified = await checker.check(request({ host: 'localhost', ssl: 'verify-full' }), checkContext(3_000));
    expect(verified.status, JSON.stringify(verified.reason)).to.equal('up');
    expect(verified.evidence.certificate?.authorized).to.equal(true);
  });

  it('is down with sslInvalid in verify-full when the chain is not trusted', async () => {
    const untrusting = new Mysql2MysqlChecker(new LoopbackTargetPolicy(), new SharedTlsContext());
    const result = await untrusting.check(request({ ssl: 'verify-full' }), checkContext(3_000));
    expect(result.reason?.code).to.equal('sslInvalid');
    expect(result.evidence.certificate?.authorized).to.equal(false);
  });

  it('is down with tlsHandshakeFailed when TLS is required of a server without it', async () => {
    const plain = await startMariadbPeer({ tls: false });
    try {
      const result = await checker.check(request({ port: plain.port, ssl: 'require' }), checkContext(3_000));
      expect(result.reason).to.deep.equal({ status: 'down', code: 'tlsHandshakeFailed', message: 'The server does not support TLS' });
      const unencrypted = await checker.check(request({ port: plain.port }), checkContext(3_000));
      expect(unencrypted.status, JSON.stringify(unencrypted.reason)).to.equal('up');
    } finally {
      await plain.stop();
    }
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
    const result = await new Mysql2MysqlChecker(new RejectingTargetPolicy(), new SharedTlsContext()).check(request(), checkContext(3_000));
    expect(result.reason?.code).to.equal('targetRejected');
    expect(result.evidence.target?.address).to.equal(null);
  });
});
