import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { NetTcpChecker } from '../../../../src/infrastructure/protocols/tcp/net-tcp-checker';
import { NodeTlsChecker } from '../../../../src/infrastructure/protocols/tls/node-tls-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { testCertificates } from '../../../support/peers/certificates';
import { HttpPeer } from '../../../support/peers/http-peer';
import { checkContext } from '../../../support/check-requests';

describe('TCP and TLS checkers against loopback peers', () => {
  const server = net.createServer((socket) => socket.end());
  let port = 0;
  const certs = testCertificates();
  const tls = new SharedTlsContext([certs.ca.cert]);
  const expiring = new HttpPeer(certs.expiring);
  const selfSigned = new HttpPeer(certs.selfSigned);
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    await Promise.all([expiring.start(), selfSigned.start()]);
  });
  after(async () => {
    server.close();
    await Promise.all([expiring.stop(), selfSigned.stop()]);
  });

  it('tcp: an open port is up with the connect time and the pinned address', async () => {
    const result = await new NetTcpChecker(new LoopbackTargetPolicy()).check(
      { kind: 'tcp', host: 'localhost', port, timeoutSeconds: 2 },
      checkContext(),
    );
    expect(result.status).to.equal('up');
    expect(result.timings.connectMs).to.be.a('number');
    expect(result.evidence.target?.address).to.match(/^(127\.0\.0\.1|::1)$/);
  });

  it('tcp: a closed port is down with connectionRefused', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await new NetTcpChecker(new LoopbackTargetPolicy()).check(
      { kind: 'tcp', host: '127.0.0.1', port: closedPort, timeoutSeconds: 2 },
      checkContext(),
    );
    expect(result.reason?.code).to.equal('connectionRefused');
  });

  it('tcp: refuses a target the policy rejects', async () => {
    const result = await new NetTcpChecker(new RejectingTargetPolicy()).check(
      { kind: 'tcp', host: '127.0.0.1', port, timeoutSeconds: 2 },
      checkContext(),
    );
    expect(result.reason?.code).to.equal('targetRejected');
  });

  it('tls: an expiring certificate is degraded, with the chain summary', async () => {
    const result = await new NodeTlsChecker(new LoopbackTargetPolicy(), tls).check(
      { kind: 'tls', host: 'localhost', port: expiring.port, noticeDays: 14, timeoutSeconds: 2 },
      checkContext(),
    );
    expect(result.status).to.equal('degraded');
    expect(result.reason?.code).to.equal('sslExpiringSoon');
    expect(result.evidence.certificate?.daysRemaining).to.be.within(1, 3);
    expect(result.timings.tlsMs).to.be.a('number');
    // phases from the check's start on one clock: the handshake ends after the connection, which ends after the lookup
    const { dnsMs, connectMs, tlsMs, totalMs } = result.timings;
    expect(dnsMs! <= connectMs! && connectMs! <= tlsMs! && tlsMs! <= totalMs, JSON.stringify(result.timings)).to.equal(true);
  });

  it('tls: a self-signed certificate is down with sslInvalid', async () => {
    const result = await new NodeTlsChecker(new LoopbackTargetPolicy(), tls).check(
      { kind: 'tls', host: 'localhost', port: selfSigned.port, noticeDays: 14, timeoutSeconds: 2 },
      checkContext(),
    );
    expect(result.reason?.code).to.equal('sslInvalid');
  });
});
