import type { CheckKind, CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';
import { token } from '../shared/token';

/**
 * A check's deadline, as probes see it: once it has passed they close their sockets and answer
 * `timeout`. Lighter than an AbortSignal, an EventTarget whose making and listeners are a
 * noticeable share of a bare TCP check's CPU. Libraries that take an AbortSignal get `signal`,
 * made on first use.
 */
export interface Deadline {
  readonly passed: boolean;
  /** Calls `listener` once when the deadline passes (never if it has already: check `passed`); the answer unsubscribes. */
  onPassed(listener: () => void): () => void;
  /** An AbortSignal aborted when the deadline passes. */
  readonly signal: AbortSignal;
}

/** Per-run facts a checker needs besides the request. */
export interface CheckContext {
  readonly deadline: Deadline;
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

/** A failure screenshot of a monitor's scenario (PNG). */
export interface Screenshot {
  readonly id: string;
  readonly monitorId: number;
  readonly organizationId: number;
  readonly takenAt: Date;
  readonly png: Uint8Array;
}

/**
 * Where the browser checker keeps failure screenshots, linked from the result's evidence by id.
 * A monitor keeps its newest SCREENSHOTS_PER_MONITOR; older ones go, and all go with the monitor
 * or after the results retention.
 */
export interface ScreenshotStore {
  save(screenshot: Screenshot): Promise<void>;
  /** The screenshot if it belongs to this monitor; null otherwise. */
  find(monitorId: number, id: string): Promise<Screenshot | null>;
  /** Deletes screenshots taken before `before`; answers how many. */
  purgeBefore(before: Date): Promise<number>;
}
export const SCREENSHOT_STORE = token<ScreenshotStore>('ScreenshotStore');
export const SCREENSHOTS_PER_MONITOR = 50;
