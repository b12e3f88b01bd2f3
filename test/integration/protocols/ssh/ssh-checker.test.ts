import { expect } from 'chai';
import { Ssh2SshChecker } from '../../../../src/infrastructure/protocols/ssh/ssh2-ssh-checker';
import type { SshCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { SshPeer } from '../../../support/peers/ssh-peer';
import { checkContext } from '../../../support/check-requests';

describe('SSH checker against an ssh2 server', () => {
  const peer = new SshPeer();
  const checker = new Ssh2SshChecker(new LoopbackTargetPolicy());
  const request = (overrides: Partial<SshCheckRequest> = {}): SshCheckRequest => ({
    kind: 'ssh',
    host: '127.0.0.1',
    port: peer.port,
    mode: 'protocol',
    credentials: null,
    timeoutSeconds: 5,
    ...overrides,
  });
  before(() => peer.start());
  after(() => peer.stop());

  it('reads the banner and completes the handshake without credentials', async () => {
    const result = await checker.check(request(), checkContext());
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(result.evidence.banner).to.equal('SSH-2.0-TestSSH_1.0');
  });

  it('authenticates with a password, and reports refused credentials', async () => {
    const ok = await checker.check(request({ credentials: { username: 'user', password: 'secret' } }), checkContext());
    expect(ok.status).to.equal('up');
    expect(ok.evidence.authenticated).to.equal(true);
    const refused = await checker.check(request({ credentials: { username: 'user', password: 'wrong' } }), checkContext());
    expect(refused.reason?.code).to.equal('authenticationFailed');
  });

  it('is down when nothing listens, and refuses a target the policy rejects', async () => {
    const closed = await checker.check(request({ port: 1 }), checkContext());
    expect(closed.reason?.code).to.equal('connectionRefused');
    const rejected = await new Ssh2SshChecker(new RejectingTargetPolicy()).check(request(), checkContext());
    expect(rejected.reason?.code).to.equal('targetRejected');
  });
});
