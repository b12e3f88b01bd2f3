import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { DgramUdpChecker } from '../../../../src/infrastructure/protocols/udp/dgram-udp-checker';
import type { UdpCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';

/** A UDP socket bound to a loopback port; `answer` says what it sends back (null: nothing). */
async function aUdpPeer(answer: (message: Buffer) => Buffer | null): Promise<{ port: number; received: Buffer[]; close: () => void }> {
  const socket = dgram.createSocket('udp4');
  const received: Buffer[] = [];
  socket.on('message', (message, from) => {
    received.push(message);
    const reply = answer(message);
    if (reply) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: (socket.address() as AddressInfo).port, received, close: () => socket.close() };
}

describe('UDP checker against loopback peers', () => {
  const checker = new DgramUdpChecker(new LoopbackTargetPolicy());
  let echo: Awaited<ReturnType<typeof aUdpPeer>>;
  let silent: Awaited<ReturnType<typeof aUdpPeer>>;
  const request = (overrides: Partial<UdpCheckRequest> = {}): UdpCheckRequest => ({
    kind: 'udp',
    host: '127.0.0.1',
    port: echo.port,
    payload: 'ping\n',
    expectedReply: null,
    timeoutSeconds: 1,
    ...overrides,
  });
  before(async () => {
    echo = await aUdpPeer((message) => Buffer.concat([Buffer.from('pong\u0001 '), message]));
    silent = await aUdpPeer(() => null);
  });
  after(() => {
    echo.close();
    silent.close();
  });

  it('is up on a reply, with the payload sent, the reply in the evidence (control characters escaped) and the round trip timed', async () => {
    const result = await checker.check(request({ expectedReply: 'pong' }), checkContext(1_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(echo.received.map(String)).to.include('ping\n');
    expect(result.evidence).to.deep.equal({
      target: { host: '127.0.0.1', address: '127.0.0.1', port: echo.port },
      banner: 'pong\\u0001 ping\\n',
    });
    const { dnsMs, connectMs, firstByteMs, totalMs } = result.timings;
    expect(dnsMs).to.equal(null);
    expect(connectMs! <= firstByteMs! && firstByteMs! <= totalMs, JSON.stringify(result.timings)).to.equal(true);
  });

  it('reaches a name through the addresses the policy vets', async () => {
    const result = await checker.check(request({ host: 'localhost' }), checkContext(1_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence.target?.address).to.equal('127.0.0.1');
    expect(result.timings.dnsMs).to.be.a('number');
  });

  it('is down when the reply lacks the expected text', async () => {
    const result = await checker.check(request({ expectedReply: 'PONG' }), checkContext(1_000));
    expect(result.status).to.equal('down');
    expect(result.reason).to.deep.equal({ status: 'down', code: 'keywordMissing', message: 'The reply does not contain "PONG"' });
    expect(result.evidence.banner).to.equal('pong\\u0001 ping\\n');
  });

  it('is down at the deadline when the port stays silent', async () => {
    const result = await checker.check(request({ port: silent.port }), checkContext(1_000));
    expect(silent.received.map(String)).to.include('ping\n');
    expect(result.reason).to.deep.equal({ status: 'down', code: 'timeout', message: 'No reply within 1 s' });
  });

  it('is down with port unreachable on a closed port (the ICMP answer)', async () => {
    const closed = await aUdpPeer(() => null);
    closed.close();
    const result = await checker.check(request({ port: closed.port }), checkContext(1_000));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'connectionRefused',
      message: `Port unreachable: 127.0.0.1 port ${closed.port} (ICMP)`,
    });
  });

  it('refuses a target the policy rejects, sending nothing', async () => {
    const before = echo.received.length;
    const result = await new DgramUdpChecker(new RejectingTargetPolicy()).check(request(), checkContext(1_000));
    expect(result.reason?.code).to.equal('targetRejected');
    expect(echo.received.length).to.equal(before);
  });
});
