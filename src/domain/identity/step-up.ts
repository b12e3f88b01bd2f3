import { AppError } from '../shared/app-error';

/** A verified code keeps a session stepped up for this long (Limits: MFA step-up validity). */
export const STEP_UP_VALIDITY_MS = 5 * 60_000;
/** Wrong codes in a row that lock verification (Limits: MFA lock). */
export const STEP_UP_MAX_FAILURES = 5;
export const STEP_UP_LOCK_MS = 15 * 60_000;

export interface StepUpState {
  readonly failedAttempts: number;
  readonly lockedUntil: Date | null;
}

export const isLocked = (state: StepUpState, now: Date): boolean =>
  state.lockedUntil !== null && state.lockedUntil.getTime() > now.getTime();

/** Throws mfa_step_up_locked (with the seconds left) while a lock holds. */
export function assertStepUpOpen(state: StepUpState, now: Date): void {
  if (!isLocked(state, now)) return;
  const retryAfterSeconds = Math.ceil((state.lockedUntil!.getTime() - now.getTime()) / 1000);
  throw new AppError('mfa_step_up_locked', { retryAfterSeconds, retryAfter: retryAfterSeconds });
}

/** One more wrong code; the fifth locks verification for 15 minutes and starts a new count. */
export function failedStepUp(state: StepUpState, now: Date): StepUpState {
  const failedAttempts = state.failedAttempts + 1;
  if (failedAttempts >= STEP_UP_MAX_FAILURES) {
    return { failedAttempts: 0, lockedUntil: new Date(now.getTime() + STEP_UP_LOCK_MS) };
  }
  return { failedAttempts, lockedUntil: null };
}

/** A session is stepped up when a code was verified within the last five minutes. */
export const isStepUpFresh = (verifiedAt: Date | null, now: Date): boolean =>
  verifiedAt !== null && now.getTime() - verifiedAt.getTime() < STEP_UP_VALIDITY_MS;
