import { expect } from 'chai';
import {
  assertStepUpOpen,
  failedStepUp,
  isStepUpFresh,
  STEP_UP_LOCK_MS,
  STEP_UP_VALIDITY_MS,
} from '../../../../src/domain/identity/step-up';
import { AppError } from '../../../../src/domain/shared/app-error';

const now = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

describe('step-up rules', () => {
  it('a verified code is fresh for just under 5 minutes', () => {
    expect(isStepUpFresh(now, later(STEP_UP_VALIDITY_MS - 1))).to.equal(true);
    expect(isStepUpFresh(now, later(STEP_UP_VALIDITY_MS))).to.equal(false);
    expect(isStepUpFresh(null, now)).to.equal(false);
  });

  it('four wrong codes count up without locking', () => {
    let state = { failedAttempts: 0, lockedUntil: null as Date | null };
    for (let i = 1; i <= 4; i++) {
      state = failedStepUp(state, now);
      expect(state).to.deep.equal({ failedAttempts: i, lockedUntil: null });
    }
  });

  it('the fifth wrong code locks for 15 minutes and resets the count', () => {
    const locked = failedStepUp({ failedAttempts: 4, lockedUntil: null }, now);
    expect(locked).to.deep.equal({ failedAttempts: 0, lockedUntil: later(STEP_UP_LOCK_MS) });
  });

  it('a lock refuses with the seconds left, and lifts when it ends', () => {
    const state = { failedAttempts: 0, lockedUntil: later(STEP_UP_LOCK_MS) };
    try {
      assertStepUpOpen(state, later(60_000));
      expect.fail('should throw');
    } catch (error) {
      expect((error as AppError).code).to.equal('mfa_step_up_locked');
      expect((error as AppError).details).to.include({ retryAfterSeconds: 840 });
    }
    expect(() => assertStepUpOpen(state, later(STEP_UP_LOCK_MS))).not.to.throw();
  });
});
