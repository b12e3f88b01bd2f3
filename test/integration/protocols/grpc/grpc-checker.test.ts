import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { GrpcJsHealthChecker } from '../../../../src/infrastructure/protocols/grpc/grpc-js-health-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { GrpcCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';
import { testCertificates, type Pem } from '../../../support/peers/certificates';
import { listenOnLoopback } from '../../../support/peers/loopback-listen';

/** A grpc-js server on loopback with grpc-health-check's health service (or none); what it was asked is kept. */
async function aGrpcServer(pem: Pem | null, withHealth = true) {
  const server = new grpc.Server();
  const asked: { service: string; authority: string }[] = [];
  if (withHealth) {
    const health = new HealthImplementation({ '': 'SERVING', 'shop.Checkout': 'SERVING', 'shop.Search': 'NOT_SERVING' });
    health.addToServer({
      addService: (service: grpc.ServiceDefinition, implementation: grpc.UntypedServiceImplementation) =>
        server.addService(service, {
          ...implementation,
          check: (call: grpc.ServerUnaryCall<{ service: string }, unknown>, callback: grpc.sendUnaryData<unknown>) => {
            asked.push({ service: call.request.service, authority: call.getHost() });
            (implementation.check as grpc.handleUnaryCall<unknown, unknown>)(call as never, callback);
          },
        }),
    } as never);
  }
  const credentials = pem
    ? grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(pem.key), cert_chain: Buffer.from(pem.cert) }])
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { port, asked, close: () => server.forceShutdown() };
}

describe('gRPC health checker against loopback grpc-js servers', () => {
  const certs = testCertificates();
  const checker = new GrpcJsHealthChecker(new LoopbackTargetPolicy(), new SharedTlsContext([certs.ca.cert]));
  let plain: Awaited<ReturnType<typeof aGrpcServer>>;
  let secure: Awaited<ReturnType<typeof aGrpcServer>>;
  let selfSigned: Awaited<ReturnType<typeof aGrpcServer>>;
  let noHealth: Awaited<ReturnType<typeof aGrpcServer>>;
  let silent: net.Server;
  const request = (overrides: Partial<GrpcCheckRequest> = {}): GrpcCheckRequest => ({
    kind: 'grpc',
    host: '127.0.0.1',
    port: plain.port,
    tls: false,
    service: 'shop.Checkout',
    timeoutSeconds: 2,
    ...overrides,
  });

  before(async () => {
    plain = await aGrpcServer(null);
    secure = await aGrpcServer(certs.valid);
    selfSigned = await aGrpcServer(certs.selfSigned);
    noHealth = await aGrpcServer(null, false);
    // accepts connections and never answers a byte
    silent = await listenOnLoopback(net.createServer(() => undefined));
  });
  after(() => {
    for (const server of [plain, secure, selfSigned, noHealth]) server.close();
    silent.close();
  });

  it('is up when the service is SERVING, asking for it with the hostname as the authority', async () => {
    const result = await checker.check(request(), checkContext(2_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(plain.asked.at(-1)).to.deep.equal({ service: 'shop.Checkout', authority: `127.0.0.1:${plain.port}` });
    expect(result.evidence).to.deep.equal({
      target: { host: '127.0.0.1', address: '127.0.0.1', port: plain.port },
      tls: false,
      banner: 'SERVING',
    });
    const { connectMs, tlsMs, firstByteMs, totalMs } = result.timings;
    expect(tlsMs).to.equal(null);
    expect(connectMs! <= firstByteMs! && firstByteMs! <= totalMs, JSON.stringify(result.timings)).to.equal(true);
  });

  it('asks for the server as a whole with an empty service name', async () => {
    const result = await checker.check(request({ service: '' }), checkContext(2_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(plain.asked.at(-1)?.service).to.equal('');
  });

  it('is down with the status when the service is NOT_SERVING', async () => {
    const result = await checker.check(request({ service: 'shop.Search' }), checkContext(2_000));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'unexpectedStatus',
      message: 'The health status of "shop.Search" is NOT_SERVING',
    });
    expect(result.evidence.banner).to.equal('NOT_SERVING');
  });

  it('is down when the server knows no such service (NOT_FOUND)', async () => {
    const result = await checker.check(request({ service: 'shop.Gone' }), checkContext(2_000));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'unexpectedStatus',
      message: 'The server knows no health status of "shop.Gone" (NOT_FOUND: Health status unknown for service shop.Gone)',
    });
  });

  it('is down when the server has no health service (UNIMPLEMENTED)', async () => {
    const result = await checker.check(request({ port: noHealth.port }), checkContext(2_000));
    expect(result.reason?.code).to.equal('protocolError');
    expect(result.reason?.message).to.match(/^The server has no health service \(UNIMPLEMENTED/);
  });

  it('speaks TLS from the shared context, the hostname as SNI, authority and verified name, the certificate in the evidence', async () => {
    const result = await checker.check(request({ host: 'localhost', port: secure.port, tls: true }), checkContext(3_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(secure.asked.at(-1)?.authority).to.equal(`localhost:${secure.port}`);
    expect(result.evidence).to.include({ tls: true, banner: 'SERVING' });
    expect(result.evidence.target?.address).to.equal('127.0.0.1');
    expect(result.evidence.certificate).to.include({ subject: 'localhost', authorized: true });
    expect(result.timings.tlsMs).to.be.a('number');
  });

  it('is down with sslInvalid on a certificate that does not verify, asking nothing', async () => {
    const result = await checker.check(request({ host: 'localhost', port: selfSigned.port, tls: true }), checkContext(3_000));
    expect(result.reason?.code, JSON.stringify(result.reason)).to.equal('sslInvalid');
    expect(result.reason?.message).to.match(/^The certificate does not verify: .*self[- ]signed/i);
    expect(selfSigned.asked).to.deep.equal([]);
  });

  it('is down at the deadline when the server accepts and never answers', async () => {
    const started = Date.now();
    const port = (silent.address() as AddressInfo).port;
    const result = await checker.check(request({ port }), checkContext(700));
    expect(result.reason).to.deep.equal({ status: 'down', code: 'timeout', message: 'No health answer within 2 s' });
    expect(Date.now() - started).to.be.below(1_500);
  });

  it('is down when the port is closed', async () => {
    const closed = await listenOnLoopback(net.createServer());
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await checker.check(request({ port }), checkContext(2_000));
    expect(result.reason?.code, JSON.stringify(result.reason)).to.equal('connectionRefused');
  });

  it('refuses a target the policy rejects, connecting nowhere', async () => {
    const before = plain.asked.length;
    const result = await new GrpcJsHealthChecker(new RejectingTargetPolicy(), new SharedTlsContext()).check(request(), checkContext(2_000));
    expect(result.reason?.code).to.equal('targetRejected');
    expect(plain.asked.length).to.equal(before);
  });
});
