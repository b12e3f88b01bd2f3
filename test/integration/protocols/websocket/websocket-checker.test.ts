import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { WebSocketServer } from 'ws';
import { WsWebSocketChecker } from '../../../../src/infrastructure/protocols/websocket/ws-websocket-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { WebSocketCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';
import { testCertificates } from '../../../support/peers/certificates';
import { closeNow, listenOnLoopback } from '../../../support/peers/loopback-listen';

/**
 * A `ws` WebSocketServer on an HTTP(S) server on loopback: it answers `pong <message>` to each
 * message, and greets on /greet. What it saw (paths, Host headers, messages) is kept.
 */
async function aWebSocketPeer(server: http.Server | https.Server) {
  const seen = { paths: [] as string[], hosts: [] as string[], messages: [] as string[] };
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    seen.paths.push(req.url ?? '');
    seen.hosts.push(req.headers.host ?? '');
    if (req.url === '/greet') socket.send('hello\u0001 there');
    if (req.url === '/bye') socket.close(1001, 'going away');
    socket.on('message', (data) => {
      seen.messages.push(String(data));
      socket.send(`pong ${String(data)}`);
    });
  });
  await listenOnLoopback(server);
  const close = async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await closeNow(server);
  };
  return { port: (server.address() as AddressInfo).port, seen, close };
}

describe('WebSocket checker against loopback ws servers', () => {
  const certs = testCertificates();
  const checker = new WsWebSocketChecker(new LoopbackTargetPolicy(), new SharedTlsContext([certs.ca.cert]));
  let plain: Awaited<ReturnType<typeof aWebSocketPeer>>;
  let secure: Awaited<ReturnType<typeof aWebSocketPeer>>;
  let selfSigned: Awaited<ReturnType<typeof aWebSocketPeer>>;
  let notWebSocket: http.Server;
  let silent: net.Server;
  const request = (overrides: Partial<WebSocketCheckRequest> = {}): WebSocketCheckRequest => ({
    kind: 'websocket',
    host: '127.0.0.1',
    port: plain.port,
    tls: false,
    path: '/socket?v=1',
    message: 'ping',
    expectedMessage: 'pong ping',
    timeoutSeconds: 1,
    ...overrides,
  });
  const portOf = (server: net.Server) => (server.address() as AddressInfo).port;

  before(async () => {
    plain = await aWebSocketPeer(http.createServer());
    secure = await aWebSocketPeer(https.createServer({ key: certs.valid.key, cert: certs.valid.cert }));
    selfSigned = await aWebSocketPeer(https.createServer({ key: certs.selfSigned.key, cert: certs.selfSigned.cert }));
    notWebSocket = await listenOnLoopback(http.createServer((_req, res) => res.writeHead(404).end('no socket here')));
    // accepts connections and never answers a byte
    silent = await listenOnLoopback(net.createServer(() => undefined));
  });
  after(async () => {
    await Promise.all([plain.close(), secure.close(), selfSigned.close(), closeNow(notWebSocket)]);
    silent.close();
  });

  it('is up when the upgrade succeeds and the first message holds the expected text, the message sent on the path asked', async () => {
    const result = await checker.check(request(), checkContext(1_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(plain.seen.paths.at(-1)).to.equal('/socket?v=1');
    expect(plain.seen.hosts.at(-1)).to.equal(`127.0.0.1:${plain.port}`);
    expect(plain.seen.messages.at(-1)).to.equal('ping');
    expect(result.evidence).to.deep.equal({
      target: { host: '127.0.0.1', address: '127.0.0.1', port: plain.port },
      tls: false,
      banner: 'pong ping',
    });
    const { dnsMs, connectMs, tlsMs, firstByteMs, totalMs } = result.timings;
    expect([dnsMs, tlsMs]).to.deep.equal([null, null]);
    expect(connectMs! <= firstByteMs! && firstByteMs! <= totalMs, JSON.stringify(result.timings)).to.equal(true);
  });

  it('is up on the upgrade alone when no message is expected, sending none when there is none', async () => {
    const before = plain.seen.messages.length;
    const result = await checker.check(request({ message: null, expectedMessage: null }), checkContext(1_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence.banner).to.equal(undefined);
    expect(plain.seen.messages.length).to.equal(before);
  });

  it('judges the first message received (a greeting), control characters escaped in the evidence', async () => {
    const result = await checker.check(request({ path: '/greet', message: null, expectedMessage: 'bye' }), checkContext(1_000));
    expect(result.reason).to.deep.equal({ status: 'down', code: 'keywordMissing', message: 'The first message does not contain "bye"' });
    expect(result.evidence.banner).to.equal('hello\\u0001 there');
  });

  it('is down when the server closes the socket before the expected message', async () => {
    const result = await checker.check(request({ path: '/bye', message: null, expectedMessage: 'x' }), checkContext(1_000));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'protocolError',
      message: 'The server closed the WebSocket (code 1001) before sending a message',
    });
  });

  it('speaks wss through the shared TLS context, the host name as SNI and Host, the certificate in the evidence', async () => {
    const result = await checker.check(request({ host: 'localhost', port: secure.port, tls: true }), checkContext(2_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(secure.seen.hosts.at(-1)).to.equal(`localhost:${secure.port}`);
    expect(result.evidence).to.include({ tls: true, banner: 'pong ping' });
    expect(result.evidence.target?.address).to.equal('127.0.0.1');
    expect(result.evidence.certificate).to.include({ subject: 'localhost', authorized: true });
    expect(result.timings.dnsMs).to.be.a('number');
    expect(result.timings.tlsMs).to.be.a('number');
  });

  it('is down with sslInvalid on a certificate that does not verify, upgrading nothing', async () => {
    const before = selfSigned.seen.paths.length;
    const result = await checker.check(request({ host: 'localhost', port: selfSigned.port, tls: true }), checkContext(2_000));
    expect(result.reason?.code).to.equal('sslInvalid');
    expect(result.evidence.certificate?.authorized).to.equal(false);
    expect(selfSigned.seen.paths.length).to.equal(before);
  });

  it('is down with the status when the upgrade is not answered 101', async () => {
    const result = await checker.check(request({ port: portOf(notWebSocket) }), checkContext(1_000));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'unexpectedStatus',
      message: 'The upgrade was answered 404 Not Found, not 101 Switching Protocols',
    });
  });

  it('is down at the deadline when the server accepts and never answers', async () => {
    const started = Date.now();
    const result = await checker.check(request({ port: portOf(silent) }), checkContext(700));
    expect(result.reason).to.deep.equal({ status: 'down', code: 'timeout', message: 'No upgrade answer in time' });
    expect(Date.now() - started).to.be.below(1_500);
  });

  it('is down at the deadline when the expected message never comes', async () => {
    const result = await checker.check(request({ message: null, expectedMessage: 'pong' }), checkContext(700));
    expect(result.reason).to.deep.equal({ status: 'down', code: 'timeout', message: 'No message within 1 s' });
  });

  it('is down when the port is closed', async () => {
    const closed = await listenOnLoopback(net.createServer());
    const port = portOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    const result = await checker.check(request({ port }), checkContext(1_000));
    expect(result.reason?.code).to.equal('connectionRefused');
  });

  it('refuses a target the policy rejects, connecting nowhere', async () => {
    const before = plain.seen.paths.length;
    const result = await new WsWebSocketChecker(new RejectingTargetPolicy(), new SharedTlsContext()).check(request(), checkContext(1_000));
    expect(result.reason?.code).to.equal('targetRejected');
    expect(plain.seen.paths.length).to.equal(before);
  });
});
