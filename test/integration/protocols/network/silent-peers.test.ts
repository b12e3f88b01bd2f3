import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Checker } from '../../../../src/application/checks/ports';
import type { ServiceCheckRequest } from '../../../../src/domain/checks/check-request';
import { BasicFtpChecker } from '../../../../src/infrastructure/protocols/ftp/basic-ftp-checker';
import { ImapflowImapChecker } from '../../../../src/infrastructure/protocols/imap/imapflow-imap-checker';
import { Pop3Checker } from '../../../../src/infrastructure/protocols/pop3/pop3-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import { NodemailerSmtpChecker } from '../../../../src/infrastructure/protocols/smtp/nodemailer-smtp-checker';
import { Ssh2SshChecker } from '../../../../src/infrastructure/protocols/ssh/ssh2-ssh-checker';
import { LoopbackTargetPolicy } from '../../../support/loopback-target-policy';
import { testCertificates } from '../../../support/peers/certificates';
import { checkContext } from '../../../support/check-requests';
import { listenOnLoopback } from '../../../support/peers/loopback-listen';
import { waitFor } from '../../../support/wait-for';

/**
 * A peer that accepts and never answers: every protocol probe waits for a greeting first. At the
 * deadline the check answers `timeout`, and the probe closes its session (the peer sees it go).
 */
describe('Service probes against a peer that never greets', () => {
  const policy = new LoopbackTargetPolicy();
  const tls = new SharedTlsContext([testCertificates().ca.cert]);
  const probes: [string, Checker<ServiceCheckRequest>][] = [
    ['smtp', new NodemailerSmtpChecker(policy, tls, 'monitor.test') as Checker<ServiceCheckRequest>],
    ['ssh', new Ssh2SshChecker(policy) as Checker<ServiceCheckRequest>],
    ['ftp', new BasicFtpChecker(policy, tls) as Checker<ServiceCheckRequest>],
    ['imap', new ImapflowImapChecker(policy, tls) as Checker<ServiceCheckRequest>],
    ['pop3', new Pop3Checker(policy, tls) as Checker<ServiceCheckRequest>],
  ];
  let silent: net.Server;
  let accepted: net.Socket[];
  before(async () => {
    silent = await listenOnLoopback(
      net.createServer((socket) => {
        socket.on('error', () => undefined);
        socket.resume(); // reads what the client sends (ssh2 and basic-ftp speak first), so its FIN is seen
        accepted.push(socket);
      }),
    );
  });
  beforeEach(() => {
    accepted = [];
  });
  after(() => silent.close());

  for (const [kind, checker] of probes) {
    it(`${kind}: timeout at the deadline, and the connection closed`, async () => {
      const request = {
        kind,
        host: '127.0.0.1',
        port: (silent.address() as AddressInfo).port,
        mode: 'protocol',
        tls: 'none',
        credentials: null,
        sslNoticeDays: null,
        timeoutSeconds: 5,
      } as ServiceCheckRequest;
      const started = Date.now();
      const result = await checker.check(request, checkContext(300));
      expect(result.reason?.code, JSON.stringify(result.reason)).to.equal('timeout');
      expect(Date.now() - started, 'ms to give up').to.be.within(250, 1_500);
      // The peer may hear of the connection after the check gave up (a loaded machine): waited for, not assumed.
      await waitFor(() => accepted.length > 0, { timeoutMs: 2_000, what: 'the peer to accept the connection' });
      expect(accepted).to.have.length(1);
      const socket = accepted[0]!;
      const closed =
        socket.closed ||
        (await new Promise<boolean>((resolve) => {
          socket.once('close', () => resolve(true));
          setTimeout(() => resolve(false), 2_000);
        }));
      expect(closed, 'the probe closed its connection at the deadline').to.equal(true);
    });
  }
});
