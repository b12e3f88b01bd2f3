import { expect } from 'chai';
import { IoredisRedisChecker, commandWords } from '../../../../src/infrastructure/protocols/redis/ioredis-redis-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { RedisCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';
import { testCertificates } from '../../../support/peers/certificates';
import { startRedisPeer, type RedisPeer } from '../../../support/peers/redis-peer';
import { aSilentTcpServer, freeLoopbackPort } from '../../../support/peers/server-process';

describe('Redis checker against a real redis-server on loopback', function () {
  this.timeout(20_000);
  let redis: RedisPeer;
  const checker = new IoredisRedisChecker(new LoopbackTargetPolicy(), new SharedTlsContext([testCertificates().ca.cert]));
  const request = (overrides: Partial<RedisCheckRequest> = {}): RedisCheckRequest => ({
    kind: 'redis',
    host: '127.0.0.1',
    port: redis.port,
    ssl: 'disable',
    credentials: { username: 'default', password: redis.password },
    command: 'PING',
    expectedReply: null,
    timeoutSeconds: 2,
    ...overrides,
  });
  before(async () => {
    redis = await startRedisPeer();
  });
  after(() => redis?.stop());

  it('is up when the password is accepted and PING answers PONG, the reply in the evidence', async () => {
    const result = await checker.check(request({ expectedReply: 'PONG' }), checkContext(2_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence).to.deep.equal({
      target: { host: '127.0.0.1', address: '127.0.0.1', port: redis.port },
      banner: 'PONG',
      authenticated: true,
    });
    const { connectMs, firstByteMs, totalMs } = result.timings;
    expect(connectMs! <= firstByteMs! && firstByteMs! <= totalMs, JSON.stringify(result.timings)).to.equal(true);
  });

  it('logs in as an ACL user and checks a command with arguments against its reply', async () => {
    const result = await checker.check(
      request({ host: 'localhost', credentials: redis.user, command: 'GET "greeting"', expectedReply: 'hello' }),
      checkContext(2_000),
    );
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence.banner).to.equal('hello redis');
    expect(result.timings.dnsMs).to.be.a('number');
  });

  it('is down with authenticationFailed when the password is wrong (and without credentials on a server that requires them)', async () => {
    const wrong = await checker.check(request({ credentials: { username: 'default', password: 'nope' } }), checkContext(2_000));
    expect(wrong.reason).to.deep.equal({ status: 'down', code: 'authenticationFailed', message: 'The server refused the credentials' });
    expect(wrong.evidence.authenticated).to.equal(false);
    const none = await checker.check(request({ credentials: null }), checkContext(2_000));
    expect(none.reason?.code).to.equal('authenticationFailed');
    expect(none.reason?.message).to.match(/^NOAUTH/);
  });

  it('is down when the reply lacks the expected text, or the command is refused (the server says why)', async () => {
    const mismatch = await checker.check(request({ expectedReply: 'pong' }), checkContext(2_000));
    expect(mismatch.reason).to.deep.equal({ status: 'down', code: 'keywordMissing', message: 'The reply does not contain "pong"' });
    expect(mismatch.evidence.banner).to.equal('PONG');
    const refused = await checker.check(request({ credentials: redis.user, command: 'SET greeting bye' }), checkContext(2_000));
    expect(refused.reason?.code).to.equal('protocolError');
    expect(refused.reason?.message).to.match(/^NOPERM/);
  });

  it('speaks TLS: require encrypts (the certificate in the evidence), verify-full also verifies the chain and name', async () => {
    const required = await checker.check(request({ port: redis.tlsPort, ssl: 'require' }), checkContext(2_000));
    expect(required.status, JSON.stringify(required.reason)).to.equal('up');
    expect(required.evidence.tls).to.equal(true);
    expect(required.evidence.certificate?.subject).to.equal('localhost');
    expect(required.timings.tlsMs).to.be.a('number');
    const verified = await checker.check(request({ host: 'localhost', port: redis.tlsPort, ssl: 'verify-full' }), checkContext(2_000));
    expect(verified.status, JSON.stringify(verified.reason)).to.equal('up');
    expect(verified.evidence.certificate?.authorized).to.equal(true);
  });

  it('is down with sslInvalid in verify-full when the chain is not trusted (require still up)', async () => {
    const untrusting = new IoredisRedisChecker(new LoopbackTargetPolicy(), new SharedTlsContext());
    const result = await untrusting.check(request({ port: redis.tlsPort, ssl: 'verify-full' }), checkContext(2_000));
    expect(result.reason?.code).to.equal('sslInvalid');
    expect(result.evidence.certificate?.authorized).to.equal(false);
    const required = await untrusting.check(request({ port: redis.tlsPort, ssl: 'require' }), checkContext(2_000));
    expect(required.status, JSON.stringify(required.reason)).to.equal('up');
  });

  it('is down with a TLS failure when the port speaks plain Redis', async () => {
    const result = await checker.check(request({ ssl: 'require' }), checkContext(2_000));
    expect(result.status).to.equal('down');
    expect(['tlsHandshakeFailed', 'timeout'], JSON.stringify(result.reason)).to.include(result.reason?.code);
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
    const result = await checker.check(request({ port: await freeLoopbackPort() }), checkContext(2_000));
    expect(result.reason?.code).to.equal('connectionRefused');
  });

  it('refuses a target the policy rejects, connecting nowhere', async () => {
    const result = await new IoredisRedisChecker(new RejectingTargetPolicy(), new SharedTlsContext()).check(request(), checkContext(2_000));
    expect(result.reason?.code).to.equal('targetRejected');
    expect(result.evidence.target?.address).to.equal(null);
  });

  it('splits a command line as redis-cli does', () => {
    expect(commandWords('GET  "a key" b\\"c "q\\"d"')).to.deep.equal(['GET', 'a key', 'b\\"c', 'q"d']);
  });
});
