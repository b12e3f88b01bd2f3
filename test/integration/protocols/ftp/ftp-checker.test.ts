import { expect } from 'chai';
import { BasicFtpChecker } from '../../../../src/infrastructure/protocols/ftp/basic-ftp-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { FtpCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { FtpPeer } from '../../../support/peers/ftp-peer';
import { checkContext } from '../../../support/check-requests';

describe('FTP checker against ftp-srv', () => {
  const peer = new FtpPeer();
  const checker = new BasicFtpChecker(new LoopbackTargetPolicy(), new SharedTlsContext());
  const request = (overrides: Partial<FtpCheckRequest> = {}): FtpCheckRequest => ({
    kind: 'ftp',
    host: 'localhost',
    port: peer.port,
    mode: 'protocol',
    tls: 'none',
    credentials: null,
    timeoutSeconds: 5,
    ...overrides,
  });
  before(() => peer.start());
  after(() => peer.stop());

  it('reads the welcome banner', async () => {
    const result = await checker.check(request(), checkContext());
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence.banner).to.contain('Test FTP ready');
  });

  it('logs in, and reports refused credentials', async () => {
    const ok = await checker.check(request({ credentials: { username: 'user', password: 'secret' } }), checkContext());
    expect(ok.status, JSON.stringify(ok.reason)).to.equal('up');
    expect(ok.evidence.authenticated).to.equal(true);
    const refused = await checker.check(request({ credentials: { username: 'user', password: 'wrong' } }), checkContext());
    expect(refused.reason?.code).to.equal('authenticationFailed');
  });

  it('refuses a target the policy rejects', async () => {
    const result = await new BasicFtpChecker(new RejectingTargetPolicy(), new SharedTlsContext()).check(request(), checkContext());
    expect(result.reason?.code).to.equal('targetRejected');
  });
});
