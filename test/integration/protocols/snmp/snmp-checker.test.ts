import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { NetSnmpChecker } from '../../../../src/infrastructure/protocols/snmp/net-snmp-checker';
import type { SnmpCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';
import { anSnmpdAgent, type SnmpdAgent } from '../../../support/peers/snmpd-agent';

const COMMUNITY = 's3cret-community';
const SYS_UPTIME = '1.3.6.1.2.1.1.3.0';
const SYS_LOCATION = '1.3.6.1.2.1.1.6.0';
const PRIV = { name: 'probe', authProtocol: 'sha', authKey: 'probe-auth-key', privProtocol: 'aes', privKey: 'probe-priv-key' };

describe('SNMP checker against snmpd on loopback', function () {
  this.timeout(20_000);
  const checker = new NetSnmpChecker(new LoopbackTargetPolicy());
  let agent: SnmpdAgent;
  const request = (overrides: Partial<SnmpCheckRequest> = {}): SnmpCheckRequest => ({
    kind: 'snmp',
    host: '127.0.0.1',
    port: agent.port,
    version: 'v2c',
    community: COMMUNITY,
    user: null,
    oid: SYS_LOCATION,
    expected: null,
    timeoutSeconds: 1,
    ...overrides,
  });
  const v3 = (user: Partial<typeof PRIV> = {}, overrides: Partial<SnmpCheckRequest> = {}) =>
    request({ version: 'v3', community: '', user: { ...PRIV, ...user }, ...overrides });

  before(async () => {
    agent = await anSnmpdAgent({
      community: COMMUNITY,
      location: 'lab rack 7',
      users: [
        { line: `probe SHA "${PRIV.authKey}" AES "${PRIV.privKey}"`, name: 'probe', level: 'priv' },
        { line: 'auditor SHA256 "auditor-auth-key"', name: 'auditor', level: 'auth' },
      ],
    });
  });
  after(async () => agent?.stop());

  it('is up on a v2c GET with the community, the value in the evidence', async () => {
    const result = await checker.check(request({ expected: { value: 'lab rack 7', comparison: 'equals' } }), checkContext(1_000));
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence).to.deep.equal({
      target: { host: '127.0.0.1', address: '127.0.0.1', port: agent.port },
      banner: `${SYS_LOCATION} = lab rack 7`,
    });
    expect(result.timings.firstByteMs! <= result.timings.totalMs).to.equal(true);
  });

  it('judges the value: equals and contains as text, below and above as numbers', async () => {
    const judged = async (oid: string, value: string, comparison: 'equals' | 'contains' | 'below' | 'above') =>
      (await checker.check(request({ oid, expected: { value, comparison } }), checkContext(1_000))).reason;
    expect(await judged(SYS_LOCATION, 'rack 7', 'contains')).to.equal(null);
    expect(await judged(SYS_LOCATION, 'lab', 'equals')).to.deep.equal({
      status: 'down',
      code: 'assertionFailed',
      message: 'The value is "lab rack 7", not "lab"',
    });
    expect(await judged(SYS_UPTIME, '0', 'above')).to.equal(null);
    expect(await judged(SYS_UPTIME, '4000000000', 'below')).to.equal(null);
    const below = await judged(SYS_UPTIME, '0', 'below');
    expect(below?.code).to.equal('assertionFailed');
    expect(below?.message).to.match(/^The value \d+ is not below 0$/);
    expect((await judged(SYS_LOCATION, '5', 'above'))?.message).to.equal('The value "lab rack 7" is not a number');
  });

  it('is down when the agent has no such object', async () => {
    const result = await checker.check(request({ oid: '1.3.6.1.2.1.1.99.0' }), checkContext(1_000));
    expect(result.reason?.code).to.equal('unexpectedStatus');
    expect(result.reason?.message).to.match(/^The agent has no value at 1\.3\.6\.1\.2\.1\.1\.99\.0 \(NoSuch(Object|Instance)\)$/);
  });

  it('is down at the deadline on a wrong community (the agent stays silent)', async () => {
    const started = Date.now();
    const result = await checker.check(request({ community: 'guess' }), checkContext(700));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'timeout',
      message: 'No answer within 1 s (an agent does not answer a wrong community)',
    });
    expect(Date.now() - started).to.be.below(1_500);
  });

  it('is up with a v3 user at authPriv (SHA, AES) and at authNoPriv (SHA-256)', async () => {
    const priv = await checker.check(v3(), checkContext(2_000));
    expect(priv.status, JSON.stringify(priv.reason)).to.equal('up');
    expect(priv.evidence.banner).to.equal(`${SYS_LOCATION} = lab rack 7`);
    const auth = await checker.check(
      v3({ name: 'auditor', authProtocol: 'sha256', authKey: 'auditor-auth-key', privProtocol: 'none' }),
      checkContext(2_000),
    );
    expect(auth.status, JSON.stringify(auth.reason)).to.equal('up');
  });

  it('is down with authenticationFailed for an unknown v3 user or a wrong auth key, never showing a digest', async () => {
    const unknown = await checker.check(v3({ name: 'nobody' }), checkContext(2_000));
    expect(unknown.reason, JSON.stringify(unknown.reason)).to.deep.equal({
      status: 'down',
      code: 'authenticationFailed',
      message: 'The agent refused the login: Unknown User Name',
    });
    const wrong = await checker.check(v3({ authKey: 'wrong-auth-key' }), checkContext(2_000));
    expect(wrong.reason?.code, JSON.stringify(wrong.reason)).to.equal('authenticationFailed');
    expect(wrong.reason?.message).not.to.match(/[0-9a-f]{16}/);
  });

  it('is down at the deadline when the privacy key is wrong (snmpd drops what it cannot decrypt)', async () => {
    const result = await checker.check(v3({ privKey: 'wrong-priv-key' }), checkContext(1_500));
    expect(result.reason).to.deep.equal({ status: 'down', code: 'timeout', message: 'No answer within 1 s' });
  });

  it('is down at the deadline when the port stays silent', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const received: Buffer[] = [];
    silent.on('message', (message) => received.push(message));
    try {
      const result = await checker.check(request({ port: (silent.address() as AddressInfo).port }), checkContext(700));
      expect(result.reason?.code).to.equal('timeout');
      expect(received.length).to.equal(1);
    } finally {
      silent.close();
    }
  });

  it('refuses an OID that is not numeric and dotted', async () => {
    const result = await checker.check(request({ oid: 'sysLocation.0' }), checkContext(1_000));
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'protocolError',
      message: 'The OID "sysLocation.0" is not numeric and dotted',
    });
  });

  it('refuses a target the policy rejects', async () => {
    const result = await new NetSnmpChecker(new RejectingTargetPolicy()).check(request(), checkContext(1_000));
    expect(result.reason?.code).to.equal('targetRejected');
  });
});
