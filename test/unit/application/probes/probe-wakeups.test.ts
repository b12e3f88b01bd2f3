import { expect } from 'chai';
import sinon from 'sinon';
import { ProbeWakeups } from '../../../../src/application/probes/probe-wakeups';
import type { ProbeCaller } from '../../../../src/application/probes/probe-identity';
import type { ScheduleWakeups } from '../../../../src/application/scheduling/ports';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakeProbeRegistry } from '../../../support/fakes/probes-fakes';
import { ManualClock } from '../../../support/manual-clock';

const clock = new ManualClock('2026-11-25T12:00:00Z');
const caller: ProbeCaller = { keyId: 1, locationId: 10, locationCode: 'office', organizationId: 5, instanceId: 'a1' };

/** The schedule's notices as the service's listener gives them: `notice()` is a change committed. */
class FakeNotices implements ScheduleWakeups {
  listeners = 0;
  stopped = 0;
  failNext = false;
  private wake: (() => void) | null = null;
  async listen(wake: () => void): Promise<() => Promise<void>> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('no channel');
    }
    this.listeners += 1;
    this.wake = wake;
    return async () => {
      this.stopped += 1;
    };
  }
  notice(): void {
    this.wake?.();
  }
}

async function setup() {
  const registry = new FakeProbeRegistry();
  await registry.greet({ instanceId: 'a1', keyId: 1, locationId: 10 }, { name: 'p', version: '1' }, clock.now());
  const notices = new FakeNotices();
  return { notices, wakeups: new ProbeWakeups(notices, registry, clock) };
}

/** Lets the wait reach its promise (it awaits the registry and the listener first). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ProbeWakeups', () => {
  let timers: sinon.SinonFakeTimers | undefined;
  afterEach(() => timers?.restore());

  it('answers a waiting probe as soon as the schedule changes', async () => {
    const { notices, wakeups } = await setup();
    const waiting = wakeups.wait(caller, 20_000);
    await settle();
    notices.notice();
    expect((await waiting).woken).to.equal(true);
  });

  it('answers not woken once the wait runs out, at most 25 seconds', async () => {
    const { wakeups } = await setup();
    timers = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const short = wakeups.wait(caller, 1_000);
    const long = wakeups.wait(caller, 60_000);
    await timers.tickAsync(1_000);
    expect((await short).woken).to.equal(false);
    await timers.tickAsync(24_000);
    expect((await long).woken).to.equal(false);
  });

  it('wakes every probe waiting in the process from one listener', async () => {
    const { notices, wakeups } = await setup();
    const waits = [wakeups.wait(caller, 20_000), wakeups.wait(caller, 20_000), wakeups.wait(caller, 20_000)];
    await settle();
    notices.notice();
    expect((await Promise.all(waits)).map((w) => w.woken)).to.deep.equal([true, true, true]);
    expect(notices.listeners).to.equal(1);
  });

  it('refuses a probe that has not said hello at its location', async () => {
    const { wakeups } = await setup();
    await expectAppErrorAsync(wakeups.wait({ ...caller, instanceId: 'b2' }, 1_000), 'probeNotRegistered');
  });

  it('still ends a wait by its time when the notices cannot be had, and listens again at the next wait', async () => {
    const { notices, wakeups } = await setup();
    notices.failNext = true;
    timers = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const first = wakeups.wait(caller, 1_000);
    await timers.tickAsync(1_000);
    expect((await first).woken).to.equal(false);
    timers.restore();
    timers = undefined;
    const second = wakeups.wait(caller, 20_000);
    await settle();
    notices.notice();
    expect((await second).woken).to.equal(true);
    expect(notices.listeners).to.equal(1);
  });

  it('answers every wait and stops listening when the host stops', async () => {
    const { notices, wakeups } = await setup();
    const waiting = wakeups.wait(caller, 20_000);
    await settle();
    await wakeups.close();
    expect((await waiting).woken).to.equal(false);
    expect(notices.stopped).to.equal(1);
    expect((await wakeups.wait(caller, 20_000)).woken, 'after close: at once').to.equal(false);
  });
});
