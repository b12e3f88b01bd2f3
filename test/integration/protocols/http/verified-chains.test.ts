import { expect } from 'chai';
import { NodeHttpChecker } from '../../../../src/infrastructure/protocols/http/node-http-checker';
import { NodeTlsChecker } from '../../../../src/infrastructure/protocols/tls/node-tls-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import { LoopbackTargetPolicy } from '../../../support/loopback-target-policy';
import { testCertificates } from '../../../support/peers/certificates';
import { HttpPeer } from '../../../support/peers/http-peer';
import { anHttpCheck, checkContext, TEST_USER_AGENT } from '../../../support/check-requests';

/** HTTPS checks reuse the verdict on a chain the peer presented before, and only on exactly that chain. */
describe('HTTPS checks and verified chains', () => {
  const certs = testCertificates();
  const policy = new LoopbackTargetPolicy();
  let peer: HttpPeer;
  let tls: SharedTlsContext;
  let checker: NodeHttpChecker;
  const ssl = { assertions: { ssl: { noticeDays: 14 } } };
  const check = (url = peer.url(), overrides = {}) => checker.check(anHttpCheck(url, { ...ssl, ...overrides }), checkContext());

  beforeEach(async () => {
    peer = await new HttpPeer(certs.valid).start();
    tls = new SharedTlsContext([certs.ca.cert]);
    checker = new NodeHttpChecker(policy, tls, TEST_USER_AGENT);
  });
  afterEach(() => peer.stop());

  it('verifies a chain once, then describes it from the verdict: the same evidence, days counted anew', async () => {
    const first = await check();
    expect(tls.verifiedChains.stats).to.deep.equal({ hits: 0, misses: 0 });
    const later = new Date(Date.now() + 10 * 86_400_000);
    const second = await checker.check(anHttpCheck(peer.url(), ssl), checkContext(5_000, later));
    expect(tls.verifiedChains.stats).to.deep.equal({ hits: 1, misses: 0 });
    expect(second.status).to.equal('up');
    const { daysRemaining: firstDays, chain: firstChain, ...firstRest } = first.evidence.certificate!;
    const { daysRemaining: secondDays, chain: secondChain, ...secondRest } = second.evidence.certificate!;
    expect(secondRest).to.deep.equal(firstRest);
    expect(firstRest).to.include({ subject: 'localhost', issuer: 'Checks Test CA', authorized: true, authorizationError: null });
    expect(secondDays).to.equal(firstDays - 10);
    expect(secondChain.map((c) => c.subject)).to.deep.equal(firstChain.map((c) => c.subject));
    expect(second.timings.tlsMs).to.be.a('number');
  });

  it('verifies again when the peer presents another certificate: a self-signed one is sslInvalid', async () => {
    expect((await check()).status).to.equal('up');
    peer.useCertificate(certs.selfSigned);
    const result = await check();
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('sslInvalid');
    expect(result.evidence.certificate).to.include({ authorized: false, issuer: 'localhost' });
    expect(tls.verifiedChains.stats.misses).to.equal(1);
    const again = await check();
    expect(again.reason?.code).to.equal('sslInvalid');
    expect(tls.verifiedChains.stats.hits).to.equal(1);
  });

  it('tells a chain from the same leaf without its intermediate', async () => {
    peer.useCertificate(certs.chained);
    const complete = await check();
    expect(complete.status, JSON.stringify(complete.reason)).to.equal('up');
    expect(complete.evidence.certificate!.chain.map((c) => c.subject)).to.deep.equal(['Checks Test Intermediate', 'Checks Test CA']);
    peer.useCertificate({ key: certs.chained.key, cert: certs.chained.leafOnly });
    const broken = await check();
    expect(broken.reason?.code).to.equal('sslInvalid');
    expect(broken.evidence.certificate).to.include({ authorized: false, fingerprint: complete.evidence.certificate!.fingerprint });
  });

  it('judges the same chain under each name it is asked for', async () => {
    expect((await check(`https://localhost:${peer.port}/`)).status).to.equal('up');
    const otherName = await check('https://elsewhere.test/', { connectTo: { host: '127.0.0.1', port: peer.port } });
    expect(otherName.reason?.code).to.equal('sslInvalid');
    expect(otherName.evidence.certificate?.authorizationError).to.match(/ALTNAME|not in the cert/i);
    // The other name's verdict is its own: the first name's chain is still authorized.
    expect((await check(`https://localhost:${peer.port}/`)).status).to.equal('up');
    expect(tls.verifiedChains.stats.hits).to.equal(1);
  });

  it('gives TLS checks the same verdicts', async () => {
    const tlsChecker = new NodeTlsChecker(policy, tls);
    const request = { kind: 'tls' as const, host: '127.0.0.1', port: peer.port, noticeDays: 14, timeoutSeconds: 5 };
    expect((await tlsChecker.check(request, checkContext())).status).to.equal('up');
    expect((await check()).status).to.equal('up');
    expect(tls.verifiedChains.stats.hits).to.equal(1);
    peer.useCertificate(certs.expiring);
    const expiring = await tlsChecker.check(request, checkContext());
    expect(expiring.reason?.code).to.equal('sslExpiringSoon');
  });
});
