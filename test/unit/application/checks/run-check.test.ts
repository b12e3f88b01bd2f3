import { expect } from 'chai';
import { RunCheck } from '../../../../src/application/checks/run-check';
import { CheckerRegistry } from '../../../../src/application/checks/checker-registry';
import { HeartbeatChecker } from '../../../../src/application/checks/heartbeat-checker';
import type { AnyChecker, CheckContext } from '../../../../src/application/checks/ports';
import type { CheckRequest, TcpCheckRequest } from '../../../../src/domain/checks/check-request';
import { checkResult, NO_TIMINGS } from '../../../../src/domain/checks/check-result';
import { AppError } from '../../../../src/domain/shared/app-error';

const now = new Date('2026-11-22T00:00:00Z');
const clock = { now: () => now };

/** An in-memory TCP checker that records what it was asked and answers as told. */
class FakeTcpChecker {
  readonly kind = 'tcp' as const;
  readonly seen: TcpCheckRequest[] = [];
  constructor(private readonly behaviour: 'up' | 'hang' | 'throw' = 'up') {}
  async check(request: TcpCheckRequest, context: CheckContext) {
    this.seen.push(request);
    if (this.behaviour === 'throw') throw new Error('adapter broke');
    if (this.behaviour === 'hang') await new Promise(() => undefined);
    return checkResult({ kind: 'tcp', findings: [], timings: NO_TIMINGS(1), evidence: {}, checkedAt: context.now });
  }
}

const registry = (...checkers: AnyChecker[]) => new CheckerRegistry(checkers);

describe('RunCheck', () => {
  it('dispatches by kind through the registry', async () => {
    const tcp = new FakeTcpChecker();
    const result = await new RunCheck(registry(tcp), clock).execute({ kind: 'tcp', host: 'h', port: 80, timeoutSeconds: 1 });
    expect(result).to.include({ kind: 'tcp', status: 'up' });
    expect(result.checkedAt).to.equal(now);
  });

  it('turns a tcp-mode service check into a bare port check, labelled with the service kind', async () => {
    const tcp = new FakeTcpChecker();
    const request: CheckRequest = { kind: 'ssh', host: 'h', port: null, mode: 'tcp', credentials: { username: 'u', password: 'p' }, timeoutSeconds: 1 };
    const result = await new RunCheck(registry(tcp), clock).execute(request);
    expect(tcp.seen).to.deep.equal([{ kind: 'tcp', host: 'h', port: 22, timeoutSeconds: 1 }]);
    expect(result.kind).to.equal('ssh');
  });

  it('answers portRequiredForTcp for IMAP/POP in tcp mode without a port', async () => {
    const request: CheckRequest = { kind: 'pop3', host: 'h', port: null, mode: 'tcp', tls: 'none', credentials: null, timeoutSeconds: 1 };
    const error = await new RunCheck(registry(new FakeTcpChecker()), clock).execute(request).catch((e) => e);
    expect(error).to.be.instanceOf(AppError).with.property('code', 'portRequiredForTcp');
  });

  it('is down with timeout when a checker misses its deadline', async function () {
    this.timeout(5_000);
    const result = await new RunCheck(registry(new FakeTcpChecker('hang')), clock).execute({ kind: 'tcp', host: 'h', port: 80, timeoutSeconds: 1 });
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('timeout');
  });

  it('is down with protocolError when a checker breaks', async () => {
    const result = await new RunCheck(registry(new FakeTcpChecker('throw')), clock).execute({ kind: 'tcp', host: 'h', port: 80, timeoutSeconds: 1 });
    expect(result.reason).to.deep.equal({ status: 'down', code: 'protocolError', message: 'adapter broke' });
  });

  it('runs heartbeat checks without I/O', async () => {
    const result = await new RunCheck(registry(new HeartbeatChecker()), clock).execute({
      kind: 'heartbeat', lastBeatAt: new Date('2026-11-21T23:00:00Z'), expectingSince: new Date('2026-11-01T00:00:00Z'), intervalSeconds: 600, graceSeconds: 60,
    });
    expect(result.reason?.code).to.equal('heartbeatMissing');
    expect(result.evidence.heartbeat?.dueAt).to.equal('2026-11-21T23:11:00.000Z');
  });

  it('refuses two checkers for one kind', () => {
    expect(() => registry(new FakeTcpChecker(), new FakeTcpChecker())).to.throw(/Two checkers/);
  });
});
