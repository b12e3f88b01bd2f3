import type { CheckRequest } from '../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, type CheckResult } from '../../domain/checks/check-result';
import { bareTcpFor, isServiceCheck } from '../../domain/checks/check-mode';
import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { CheckerRegistry } from './checker-registry';
import { CheckDeadline } from './check-deadline';

/** How long past its deadline a checker may take to wind down before the run answers for it. */
export const GRACE_MS = 1_000;

/**
 * Runs one check: tcp-mode service checks become bare port checks, the request's timeout becomes
 * the deadline every probe honours, and a checker that fails to answer in time (or breaks) still
 * yields a down result, so callers (the scheduler, the tools) always get a CheckResult.
 */
export class RunCheck {
  constructor(
    private readonly registry: CheckerRegistry,
    private readonly clock: Clock,
  ) {}

  async execute(request: CheckRequest): Promise<CheckResult> {
    let effective: CheckRequest = request;
    if (isServiceCheck(request) && request.mode === 'tcp') {
      const tcp = bareTcpFor(request);
      if (!tcp) throw new AppError('portRequiredForTcp', { field: 'port' });
      effective = tcp;
    }
    const now = this.clock.now();
    const timeoutMs = 'timeoutSeconds' in effective ? effective.timeoutSeconds * 1000 : 10_000;
    const deadline = new CheckDeadline();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = performance.now(); // the clock the checkers' phases are read from (monotonic)
    const failed = (code: 'timeout' | 'protocolError', message: string) =>
      checkResult({
        kind: request.kind,
        findings: [down(code, message)],
        timings: NO_TIMINGS(performance.now() - started),
        evidence: {},
        checkedAt: now,
      });
    // One timer per check: at the deadline it passes the probe's Deadline, then gives it GRACE_MS to answer.
    const late = new Promise<CheckResult>((resolve) => {
      timer = setTimeout(() => {
        deadline.pass();
        timer = setTimeout(() => resolve(failed('timeout', `No answer within ${timeoutMs / 1000} s`)), GRACE_MS);
      }, timeoutMs);
    });
    try {
      const checker = this.registry.for(effective.kind);
      const result = await Promise.race([checker.check(effective, { deadline, now }), late]);
      return result.kind === request.kind ? result : { ...result, kind: request.kind };
    } catch (error) {
      return failed('protocolError', error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }
}
