import type { CheckKind, CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';

/** Per-run facts a checker needs besides the request. */
export interface CheckContext {
  /** Aborted at the request's deadline: probes close their sockets and answer `timeout`. */
  readonly signal: AbortSignal;
  /** When the check started (certificate and domain days are counted from it). */
  readonly now: Date;
}

/**
 * One adapter per protocol. A checker never throws for anything the target does: refusals,
 * timeouts, bad certificates and failed assertions all come back as a down or degraded result.
 */
export interface Checker<R extends CheckRequest = CheckRequest> {
  readonly kind: R['kind'];
  check(request: R, context: CheckContext): Promise<CheckResult>;
}

export type AnyChecker = { [K in CheckKind]: Checker<Extract<CheckRequest, { kind: K }>> }[CheckKind];
