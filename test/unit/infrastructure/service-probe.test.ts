import { expect } from 'chai';
import { CheckDeadline } from '../../../src/application/checks/check-deadline';
import type { SshCheckRequest } from '../../../src/domain/checks/check-request';
import { ProbeError } from '../../../src/infrastructure/protocols/shared/probe-error';
import { runServiceProbe } from '../../../src/infrastructure/protocols/shared/service-probe';

describe('runServiceProbe (the frame of the protocol-mode service checks)', () => {
  const request: SshCheckRequest = {
    kind: 'ssh',
    host: '[::1]',
    port: null,
    mode: 'protocol',
    credentials: null,
    timeoutSeconds: 5,
  };

  /** A session that, as the client libraries do, fails with an error of its own once it is closed. */
  const sessionClosedAtDeadline = (deadline: CheckDeadline) =>
    new Promise<never>((_, reject) => {
      deadline.onPassed(() => setImmediate(() => reject(new ProbeError('protocolError', 'The server closed the connection'))));
    });

  it('answers timeout at the deadline, whatever the probe throws once its session is closed', async () => {
    const deadline = new CheckDeadline();
    const result = runServiceProbe(request, { deadline, now: new Date() }, () => sessionClosedAtDeadline(deadline));
    deadline.pass();
    const { findings } = await result;
    expect(findings.map((f) => f.code)).to.deep.equal(['timeout']);
  });

  it('counts as the timeout an error the probe throws at once when its session is closed at the deadline', async () => {
    const deadline = new CheckDeadline();
    // settles in the deadline's own listener, before the frame hears of the deadline
    const result = runServiceProbe(
      request,
      { deadline, now: new Date() },
      () =>
        new Promise<never>((_, reject) => {
          deadline.onPassed(() => reject(new ProbeError('protocolError', 'User closed client during task')));
        }),
    );
    deadline.pass();
    const { findings } = await result;
    expect(findings.map((f) => f.code)).to.deep.equal(['timeout']);
  });

  it('answers what the probe threw before the deadline, with the effective target', async () => {
    const result = await runServiceProbe(request, { deadline: new CheckDeadline(), now: new Date() }, async (target) => {
      expect(target).to.deep.equal({ host: '::1', port: 22 });
      throw new ProbeError('protocolError', 'Unexpected greeting: nope');
    });
    expect(result.findings.map((f) => [f.code, f.message])).to.deep.equal([['protocolError', 'Unexpected greeting: nope']]);
    expect(result.evidence.target).to.deep.equal({ host: '::1', address: null, port: 22 });
  });
});
