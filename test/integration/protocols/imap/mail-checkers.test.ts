import { expect } from 'chai';
import { ImapflowImapChecker } from '../../../../src/infrastructure/protocols/imap/imapflow-imap-checker';
import { Pop3Checker } from '../../../../src/infrastructure/protocols/pop3/pop3-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { ImapCheckRequest, Pop3CheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { testCertificates } from '../../../support/peers/certificates';
import { MailPeer } from '../../../support/peers/mail-peers';
import { checkContext } from '../../../support/check-requests';

describe('IMAP and POP3 checkers against loopback mail servers', () => {
  const certs = testCertificates();
  const tls = new SharedTlsContext([certs.ca.cert]);
  const imapPeer = new MailPeer('imap', certs.valid);
  const popPeer = new MailPeer('pop3', certs.valid);
  const imap = new ImapflowImapChecker(new LoopbackTargetPolicy(), tls);
  const pop3 = new Pop3Checker(new LoopbackTargetPolicy(), tls);
  const imapRequest = (o: Partial<ImapCheckRequest> = {}): ImapCheckRequest => ({
    kind: 'imap',
    host: 'localhost',
    port: imapPeer.port,
    mode: 'protocol',
    tls: 'starttls',
    credentials: null,
    timeoutSeconds: 5,
    ...o,
  });
  const popRequest = (o: Partial<Pop3CheckRequest> = {}): Pop3CheckRequest => ({
    kind: 'pop3',
    host: 'localhost',
    port: popPeer.port,
    mode: 'protocol',
    tls: 'starttls',
    credentials: null,
    timeoutSeconds: 5,
    ...o,
  });
  before(async () => {
    await Promise.all([imapPeer.start(), popPeer.start()]);
  });
  after(async () => {
    await Promise.all([imapPeer.stop(), popPeer.stop()]);
  });
  afterEach(() => {
    imapPeer.failing = false;
    popPeer.failing = false;
  });

  it('imap: greeting and STARTTLS with the certificate', async () => {
    const result = await imap.check(imapRequest(), checkContext());
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence.banner).to.contain('Test IMAP ready');
    expect(result.evidence.tls).to.equal(true);
    expect(result.evidence.certificate?.authorized).to.equal(true);
  });

  it('imap: login succeeds or is reported refused', async () => {
    const ok = await imap.check(imapRequest({ credentials: { username: 'user', password: 'secret' } }), checkContext());
    expect(ok.status, JSON.stringify(ok.reason)).to.equal('up');
    const refused = await imap.check(imapRequest({ credentials: { username: 'user', password: 'wrong' } }), checkContext());
    expect(refused.reason?.code).to.equal('authenticationFailed');
  });

  it('imap: a server that says BYE is down; a rejected target is refused', async () => {
    imapPeer.failing = true;
    expect((await imap.check(imapRequest(), checkContext())).status).to.equal('down');
    expect((await new ImapflowImapChecker(new RejectingTargetPolicy(), tls).check(imapRequest(), checkContext())).reason?.code).to.equal(
      'targetRejected',
    );
  });

  it('pop3: greeting, STLS and login', async () => {
    const result = await pop3.check(popRequest({ credentials: { username: 'user', password: 'secret' } }), checkContext());
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence).to.include({ banner: '+OK Test POP3 ready', tls: true, authenticated: true });
    expect(result.evidence.certificate?.subject).to.equal('localhost');
    const refused = await pop3.check(popRequest({ credentials: { username: 'user', password: 'wrong' } }), checkContext());
    expect(refused.reason?.code).to.equal('authenticationFailed');
  });

  it('pop3: an -ERR greeting is down with protocolError', async () => {
    popPeer.failing = true;
    const result = await pop3.check(popRequest(), checkContext());
    expect(result.reason?.code).to.equal('protocolError');
  });
});
