import { expect } from 'chai';
import sinon from 'sinon';
import { CheckDeadline } from '../../../../src/application/checks/check-deadline';

describe("CheckDeadline (what probes see of a check's deadline)", () => {
  it('calls each subscribed listener once when it passes, and none unsubscribed', () => {
    const deadline = new CheckDeadline();
    const calls: string[] = [];
    deadline.onPassed(() => calls.push('a'));
    const unsubscribe = deadline.onPassed(() => calls.push('b'));
    deadline.onPassed(() => calls.push('c'));
    unsubscribe();
    expect(deadline.passed).to.equal(false);
    deadline.pass();
    deadline.pass();
    expect(deadline.passed).to.equal(true);
    expect(calls).to.deep.equal(['a', 'c']);
  });

  it('does not call a listener subscribed once it has passed (as AbortSignal does not)', () => {
    const deadline = new CheckDeadline();
    deadline.pass();
    let called = false;
    deadline.onPassed(() => {
      called = true;
    })();
    expect(called).to.equal(false);
  });

  it('gives libraries an AbortSignal that aborts with it, made before or after it passed', () => {
    const early = new CheckDeadline();
    const signal = early.signal;
    expect(signal.aborted).to.equal(false);
    early.pass();
    expect(signal.aborted).to.equal(true);
    const late = new CheckDeadline();
    late.pass();
    expect(late.signal.aborted).to.equal(true);
  });

  it('passes after a time of its own', () => {
    const timers = sinon.useFakeTimers();
    try {
      const deadline = CheckDeadline.after(20);
      timers.tick(19);
      expect(deadline.passed).to.equal(false);
      timers.tick(1);
      expect(deadline.passed).to.equal(true);
    } finally {
      timers.restore();
    }
  });

  it('passes within a time of its own, calling each listener once, unless cleared first', () => {
    const timers = sinon.useFakeTimers();
    try {
      const passing = CheckDeadline.within(20);
      let calls = 0;
      passing.deadline.onPassed(() => calls++);
      timers.tick(19);
      expect(passing.deadline.passed).to.equal(false);
      timers.tick(1);
      expect(passing.deadline.passed).to.equal(true);
      passing.clear();
      timers.tick(100);
      expect(calls).to.equal(1);

      const cleared = CheckDeadline.within(20);
      cleared.deadline.onPassed(() => calls++);
      timers.tick(10);
      cleared.clear();
      timers.tick(100);
      expect(cleared.deadline.passed).to.equal(false);
      expect(cleared.deadline.signal.aborted).to.equal(false);
      expect(calls).to.equal(1);
      expect(timers.countTimers()).to.equal(0);
    } finally {
      timers.restore();
    }
  });
});
