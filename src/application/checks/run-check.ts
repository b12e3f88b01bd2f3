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

  execute(request: CheckRequest): Promise<CheckResult> {
    let effective: CheckRequest = request;
    if (isServiceCheck(request) && request.mode === 'tcp') {
      const tcp = bareTcpFor(request);
      if (!tcp) return Promise.reject(new AppError('portRequiredForTcp', { field: 'port' }));
      effective = tcp;
    }
    const now = this.clock.now();
    const timeoutMs = 'timeoutSeconds' in effective ? effective.timeoutSeconds * 1000 : 10_000;
    const deadline = new CheckDeadline();
    const started = performance.now(); // the clock the checkers' phases are read from (monotonic)
    const { kind } = request;
    // One promise and one timer per check (no race against a second promise): at the deadline the
    // timer passes the probe's Deadline, then gives it GRACE_MS to answer before answering for it.
    return new Promise<CheckResult>((resolve) => {
      let settled = false;
      const settle = (result: CheckResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result.kind === kind ? result : { ...result, kind });
      };
      const broke = (error: unknown) =>
        settle(failedRun(kind, 'protocolError', error instanceof Error ? error.message : String(error), started, now));
      let timer = setTimeout(() => {
        deadline.pass();
        timer = setTimeout(() => settle(failedRun(kind, 'timeout', `No answer within ${timeoutMs / 1000} s`, started, now)), GRACE_MS);
      }, timeoutMs);
      try {
        this.registry.for(effective.kind).check(effective, { deadline, now }).then(settle, broke);
      } catch (error) {
        broke(error);
      }
    });
  }
}

/** The result of a run whose checker broke or did not answer in time. */
function failedRun(kind: CheckRequest['kind'], code: 'timeout' | 'protocolError', message: string, started: number, checkedAt: Date) {
  return checkResult({ kind, findings: [down(code, message)], timings: NO_TIMINGS(performance.now() - started), evidence: {}, checkedAt });
}
