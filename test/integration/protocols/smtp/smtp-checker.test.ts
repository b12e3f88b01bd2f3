import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { NodemailerSmtpChecker } from '../../../../src/infrastructure/protocols/smtp/nodemailer-smtp-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { SmtpCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { checkContext } from '../../../support/check-requests';
import { listenOnLoopback } from '../../../support/peers/loopback-listen';

describe('SMTP checker against smtp-server with STARTTLS', () => {
  const certs = testCertificates();
  const tls = new SharedTlsContext([certs.ca.cert]);
  const checker = new NodemailerSmtpChecker(new LoopbackTargetPolicy(), tls, 'monitor.test');
  const trusted = new SmtpPeer(certs.valid);
  const selfSigned = new SmtpPeer(certs.selfSigned);
  const plainOnly = new SmtpPeer(certs.valid, { starttls: false });
  const request = (port: number, overrides: Partial<SmtpCheckRequest> = {}): SmtpCheckRequest => ({
    kind: 'smtp',
    host: 'localhost',
    port,
    mode: 'protocol',
    tls: 'starttls',
    credentials: null,
    sslNoticeDays: 14,
    timeoutSeconds: 5,
    ...overrides,
  });
  before(async () => {
    await Promise.all([trusted.start(), selfSigned.start(), plainOnly.start()]);
  });
  after(async () => {
    await Promise.all([trusted.stop(), selfSigned.stop(), plainOnly.stop()]);
  });

  it('reads the banner, upgrades with STARTTLS and checks the certificate', async () => {
    const result = await checker.check(request(trusted.port), checkContext());
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence.banner).to.match(/^220 .*Test SMTP ready/);
    expect(result.evidence.tls).to.equal(true);
    expect(result.evidence.certificate).to.include({ subject: 'localhost', authorized: true });
  });

  it('is down with sslInvalid when the STARTTLS certificate is self-signed', async () => {
    const result = await checker.check(request(selfSigned.port), checkContext());
    expect(result.reason?.code).to.equal('sslInvalid');
  });

  it('is down with starttlsUnavailable when the server does not offer STARTTLS', async () => {
    const result = await checker.check(request(plainOnly.port), checkContext());
    expect(result.reason?.code).to.equal('starttlsUnavailable');
  });

  it('authenticates with credentials, and reports refused ones', async () => {
    const ok = await checker.check(request(trusted.port, { credentials: { username: 'user', password: 'secret' } }), checkContext());
    expect(ok.status).to.equal('up');
    expect(ok.evidence.authenticated).to.equal(true);
    const refused = await checker.check(request(trusted.port, { credentials: { username: 'user', password: 'wrong' } }), checkContext());
    expect(refused.reason?.code).to.equal('authenticationFailed');
  });

  it('refuses a target the policy rejects', async () => {
    const result = await new NodemailerSmtpChecker(new RejectingTargetPolicy(), tls, 'monitor.test').check(
      request(trusted.port),
      checkContext(),
    );
    expect(result.reason?.code).to.equal('targetRejected');
  });

  it('ends at the deadline with timeout when the server accepts and never sends its banner', async () => {
    const sockets: net.Socket[] = [];
    const silent = await listenOnLoopback(net.createServer((socket) => void sockets.push(socket)));
    try {
      const started = Date.now();
      const result = await checker.check(request((silent.address() as AddressInfo).port), checkContext(300));
      expect(result.reason?.code).to.equal('timeout');
      expect(Date.now() - started, 'ms to give up').to.be.within(250, 1_500);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
