import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import mqtt from 'mqtt';
import { MqttJsChecker } from '../../../../src/infrastructure/protocols/mqtt/mqtt-js-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { MqttCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';
import { testCertificates } from '../../../support/peers/certificates';
import { listenOnLoopback } from '../../../support/peers/loopback-listen';
import { aMosquittoBroker, type MosquittoBroker } from '../../../support/peers/mosquitto-broker';

const PROBE = { username: 'probe', password: 'probe-secret' };

/** Publishes a retained message as the probe user, straight to the broker. */
async function retain(port: number, topic: string, message: string): Promise<void> {
  const client = await mqtt.connectAsync({ host: '127.0.0.1', port, ...PROBE, reconnectPeriod: 0 });
  await client.publishAsync(topic, message, { retain: true, qos: 1 });
  await client.endAsync();
}

/**
 * A minimal MQTT 3.1.1 broker on loopback (the standard's packets, written by hand): CONNACK accepted
 * to any CONNECT, then to a SUBSCRIBE its SUBACK (QoS 0 granted) and a retained PUBLISH on the
 * subscribed topic in ONE write, as a broker holding a retained message may send them.
 */
async function aSameSegmentBroker(message: string) {
  const server = net.createServer((socket) => {
    let pending = Buffer.alloc(0);
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        // fixed header: type byte, remaining length (variable-length integer)
        let length = 0;
        let at = 1;
        for (let shift = 0; at < pending.length; shift += 7) {
          const byte = pending[at++]!;
          length += (byte & 0x7f) << shift;
          if ((byte & 0x80) === 0) break;
        }
        if (pending.length < 2 || pending.length < at + length) return;
        const [type, body] = [pending[0]! >> 4, pending.subarray(at, at + length)];
        pending = pending.subarray(at + length);
        if (type === 1) socket.write(Buffer.from([0x20, 0x02, 0x00, 0x00]));
        if (type === 8) {
          const topic = body.subarray(4, 4 + body.readUInt16BE(2));
          const publish = Buffer.concat([Buffer.from([topic.length >> 8, topic.length & 0xff]), topic, Buffer.from(message)]);
          socket.write(Buffer.concat([Buffer.from([0x90, 0x03, body[0]!, body[1]!, 0x00]), Buffer.from([0x31, publish.length]), publish]));
        }
        if (type === 14) socket.end();
      }
    });
  });
  await listenOnLoopback(server);
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

describe('MQTT checker against a mosquitto broker on loopback', function () {
  this.timeout(15_000);
  const certs = testCertificates();
  const checker = new MqttJsChecker(new LoopbackTargetPolicy(), new SharedTlsContext([certs.ca.cert]));
  let broker: MosquittoBroker;
  let silent: net.Server;
  const request = (overrides: Partial<MqttCheckRequest> = {}): MqttCheckRequest => ({
    kind: 'mqtt',
    host: '127.0.0.1',
    port: broker.port,
    tls: false,
    credentials: PROBE,
    topic: 'plant/1/status',
    expectedMessage: 'online',
    timeoutSeconds: 1,
    ...overrides,
  });

  before(async () => {
    broker = await aMosquittoBroker({ [PROBE.username]: PROBE.password }, ['plant/#'], certs.valid);
    await retain(broker.port, 'plant/1/status', 'online since 06:00\n');
    // accepts connections and never answers a byte
    silent = await listenOnLoopback(net.createServer(() => undefined));
  });
  after(async () => {
    silent?.close();
    await broker?.stop();
  });

  it('is up when the broker accepts the login and the first message on the topic (the retained one) holds the text', async () => {
    const result = await checker.check(request(), checkContext(1_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence).to.deep.equal({
      target: { host: '127.0.0.1', address: '127.0.0.1', port: broker.port },
      tls: false,
      authenticated: true,
      banner: 'online since 06:00\\n',
    });
    const { dnsMs, connectMs, tlsMs, firstByteMs, totalMs } = result.timings;
    expect([dnsMs, tlsMs]).to.deep.equal([null, null]);
    expect(connectMs! <= firstByteMs! && firstByteMs! <= totalMs, JSON.stringify(result.timings)).to.equal(true);
  });

  it('takes a retained message that arrives in the same segment as the SUBACK (before mqtt.js calls back the subscription)', async () => {
    const peer = await aSameSegmentBroker('online since 06:00');
    try {
      const result = await checker.check(request({ port: peer.port, credentials: null }), checkContext(1_000));
      expect(result.status, JSON.stringify(result.reason)).to.equal('up');
      expect(result.evidence.banner).to.equal('online since 06:00');
    } finally {
      peer.close();
    }
  });

  it('is up on the CONNACK alone without a topic, and on the SUBACK with a topic and no expected message', async () => {
    expect((await checker.check(request({ topic: null, expectedMessage: null }), checkContext(1_000))).status).to.equal('up');
    const empty = await checker.check(request({ topic: 'plant/9/status', expectedMessage: null }), checkContext(1_000));
    expect(empty.status, JSON.stringify(empty.reason)).to.equal('up');
    expect(empty.evidence.banner).to.equal(undefined);
  });

  it('is down when the first message lacks the expected text', async () => {
    const result = await checker.check(request({ expectedMessage: 'offline' }), checkContext(1_000));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'keywordMissing',
      message: 'The first message on plant/1/status does not contain "offline"',
    });
  });

  it('is down at the deadline when no message comes on the topic', async () => {
    const result = await checker.check(request({ topic: 'plant/2/status' }), checkContext(1_000));
    expect(result.reason).to.deep.equal({ status: 'down', code: 'timeout', message: 'No message on plant/2/status within 1 s' });
  });

  it('is down with authenticationFailed on a wrong password, and without a login where anonymous access is off', async () => {
    const wrong = await checker.check(request({ credentials: { username: 'probe', password: 'nope' } }), checkContext(1_000));
    expect(wrong.reason?.code, JSON.stringify(wrong.reason)).to.equal('authenticationFailed');
    expect(wrong.reason?.message).to.match(/^The broker refused the login: /);
    expect(wrong.evidence.authenticated).to.equal(false);
    const anonymous = await checker.check(request({ credentials: null }), checkContext(1_000));
    expect(anonymous.reason?.code, JSON.stringify(anonymous.reason)).to.equal('authenticationFailed');
  });

  it('is down when the topic filter cannot be subscribed to', async () => {
    const result = await checker.check(request({ topic: 'plant/#/status' }), checkContext(1_000));
    expect(result.reason?.code, JSON.stringify(result.reason)).to.equal('protocolError');
    expect(result.reason?.message).to.match(/^The subscription to plant\/#\/status failed: /);
  });

  it('speaks TLS through the shared context to a name, the certificate in the evidence', async () => {
    const result = await checker.check(request({ host: 'localhost', port: broker.tlsPort, tls: true }), checkContext(2_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence).to.include({ tls: true, authenticated: true });
    expect(result.evidence.target?.address).to.equal('127.0.0.1');
    expect(result.evidence.certificate).to.include({ subject: 'localhost', authorized: true });
    expect(result.timings.dnsMs).to.be.a('number');
    expect(result.timings.tlsMs).to.be.a('number');
  });

  it('is down with sslInvalid when the certificate does not verify, sending no login', async () => {
    const untrusting = new MqttJsChecker(new LoopbackTargetPolicy(), new SharedTlsContext());
    const result = await untrusting.check(request({ host: 'localhost', port: broker.tlsPort, tls: true }), checkContext(2_000));
    expect(result.reason?.code, JSON.stringify(result.reason)).to.equal('sslInvalid');
    expect(result.evidence.certificate?.authorized).to.equal(false);
    expect(result.evidence.authenticated).to.equal(undefined);
  });

  it('is down at the deadline when the server accepts and never answers', async () => {
    const started = Date.now();
    const port = (silent.address() as AddressInfo).port;
    const result = await checker.check(request({ port }), checkContext(700));
    expect(result.reason).to.deep.equal({ status: 'down', code: 'timeout', message: 'No CONNACK within 1 s' });
    expect(Date.now() - started).to.be.below(1_500);
  });

  it('is down when an expected message has no topic to come on', async () => {
    const result = await checker.check(request({ topic: null }), checkContext(1_000));
    expect(result.reason?.code).to.equal('protocolError');
  });

  it('refuses a target the policy rejects', async () => {
    const result = await new MqttJsChecker(new RejectingTargetPolicy(), new SharedTlsContext()).check(request(), checkContext(1_000));
    expect(result.reason?.code).to.equal('targetRejected');
  });
});
