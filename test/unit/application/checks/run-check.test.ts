import { expect } from 'chai';
import sinon from 'sinon';
import { RunCheck } from '../../../../src/application/checks/run-check';
import { CheckerRegistry } from '../../../../src/application/checks/checker-registry';
import { HeartbeatChecker } from '../../../../src/application/checks/heartbeat-checker';
import type { AnyChecker } from '../../../../src/application/checks/ports';
import type { CheckRequest } from '../../../../src/domain/checks/check-request';
import { FakeTcpChecker } from '../../../support/fakes/checks-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { expectAppErrorAsync } from '../../../support/expect-app-error';

const clock = new ManualClock('2026-11-22T00:00:00Z');

const registry = (...checkers: AnyChecker[]) => new CheckerRegistry(checkers);

describe('RunCheck', () => {
  it('dispatches by kind through the registry', async () => {
    const tcp = new FakeTcpChecker();
    const result = await new RunCheck(registry(tcp), clock).execute({ kind: 'tcp', host: 'h', port: 80, timeoutSeconds: 1 });
    expect(result).to.include({ kind: 'tcp', status: 'up' });
    expect(result.checkedAt).to.deep.equal(clock.now());
  });

  it('turns a tcp-mode service check into a bare port check, labelled with the service kind', async () => {
    const tcp = new FakeTcpChecker();
    const request: CheckRequest = {
      kind: 'ssh',
      host: 'h',
      port: null,
      mode: 'tcp',
      credentials: { username: 'u', password: 'p' },
      timeoutSeconds: 1,
    };
    const result = await new RunCheck(registry(tcp), clock).execute(request);
    expect(tcp.seen).to.deep.equal([{ kind: 'tcp', host: 'h', port: 22, timeoutSeconds: 1 }]);
    expect(result.kind).to.equal('ssh');
  });

  it('answers portRequiredForTcp for IMAP/POP in tcp mode without a port', async () => {
    const request: CheckRequest = { kind: 'pop3', host: 'h', port: null, mode: 'tcp', tls: 'none', credentials: null, timeoutSeconds: 1 };
    await expectAppErrorAsync(new RunCheck(registry(new FakeTcpChecker()), clock).execute(request), 'portRequiredForTcp');
  });

  it('is down with timeout when a checker misses its deadline (and its grace to wind down)', async () => {
    const timers = sinon.useFakeTimers();
    try {
      let answered = false;
      const running = new RunCheck(registry(new FakeTcpChecker('hang')), clock)
        .execute({ kind: 'tcp', host: 'h', port: 80, timeoutSeconds: 1 })
        .finally(() => {
          answered = true;
        });
      await timers.tickAsync(1_000);
      expect(answered, 'at the deadline the checker still has its grace').to.equal(false);
      await timers.runAllAsync();
      const result = await running;
      expect(result.status).to.equal('down');
      expect(result.reason).to.include({ code: 'timeout', message: 'No answer within 1 s' });
    } finally {
      timers.restore();
    }
  });

  it('is down with protocolError when a checker breaks', async () => {
    const result = await new RunCheck(registry(new FakeTcpChecker('throw')), clock).execute({
      kind: 'tcp',
      host: 'h',
      port: 80,
      timeoutSeconds: 1,
    });
    expect(result.reason).to.deep.equal({ status: 'down', code: 'protocolError', message: 'adapter broke' });
  });

  it('runs heartbeat checks without I/O', async () => {
    const result = await new RunCheck(registry(new HeartbeatChecker()), clock).execute({
      kind: 'heartbeat',
      lastBeatAt: new Date('2026-11-21T23:00:00Z'),
      expectingSince: new Date('2026-11-01T00:00:00Z'),
      intervalSeconds: 600,
      graceSeconds: 60,
    });
    expect(result.reason?.code).to.equal('heartbeatMissing');
    expect(result.evidence.heartbeat?.dueAt).to.equal('2026-11-21T23:11:00.000Z');
  });

  it('refuses two checkers for one kind', () => {
    expect(() => registry(new FakeTcpChecker(), new FakeTcpChecker())).to.throw(/Two checkers/);
  });
});
