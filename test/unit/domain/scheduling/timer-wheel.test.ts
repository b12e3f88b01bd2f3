import { expect } from 'chai';
import { TimerWheel } from '../../../../src/domain/scheduling/timer-wheel';

const T0 = 1_000_000;

describe('TimerWheel', () => {
  it('hands out items in time order once their bucket has ended: never early, at most one bucket late', () => {
    const wheel = new TimerWheel<string>(50, T0);
    wheel.schedule('c', T0 + 260);
    wheel.schedule('a', T0 + 100);
    wheel.schedule('b', T0 + 149);
    expect(wheel.advance(T0 + 149)).to.deep.equal([]);
    expect(wheel.advance(T0 + 150)).to.deep.equal(['a', 'b']);
    expect(wheel.advance(T0 + 299)).to.deep.equal([]);
    expect(wheel.advance(T0 + 300)).to.deep.equal(['c']);
    expect(wheel.size).to.equal(0);
  });

  it('moves an item scheduled again, hands it out once, and forgets a cancelled one', () => {
    const wheel = new TimerWheel<string>(50, T0);
    wheel.schedule('moved', T0 + 100);
    wheel.schedule('moved', T0 + 400);
    wheel.schedule('moved', T0 + 100);
    wheel.schedule('gone', T0 + 100);
    wheel.cancel('gone');
    expect(wheel.advance(T0 + 1_000)).to.deep.equal(['moved']);
  });

  it('refuses a time whose bucket was handed out already (the caller runs the item now)', () => {
    const wheel = new TimerWheel<string>(50, T0);
    wheel.advance(T0 + 500);
    expect(wheel.schedule('late', T0 + 420)).to.equal(false);
    expect(wheel.schedule('soon', T0 + 500)).to.equal(true);
    expect(wheel.size).to.equal(1);
  });

  it('after a long gap, walks only the buckets it has, still in time order', () => {
    const wheel = new TimerWheel<number>(50, T0);
    const day = 86_400_000;
    wheel.schedule(2, T0 + 2 * day);
    wheel.schedule(1, T0 + day);
    wheel.schedule(3, T0 + 30 * day);
    expect(wheel.advance(T0 + 3 * day)).to.deep.equal([1, 2]);
    expect(wheel.advance(T0 + 31 * day)).to.deep.equal([3]);
  });

  it('tells when an advance next hands something out: the end of the first bucket an item waits in, within the span asked', () => {
    const wheel = new TimerWheel<string>(50, T0);
    const end = (at: number) => Math.floor(at / 50) * 50 + 50;
    expect(wheel.nextDueMs(60_000), 'nothing waits').to.equal(null);
    wheel.schedule('later', T0 + 1_230);
    wheel.schedule('sooner', T0 + 420);
    expect(wheel.nextDueMs(60_000)).to.equal(end(T0 + 420));
    expect(wheel.nextDueMs(300), 'nothing within 300 ms').to.equal(null);
    wheel.schedule('sooner', T0 + 2_000);
    expect(wheel.nextDueMs(60_000), "a moved item's old bucket is not due").to.equal(end(T0 + 1_230));
    expect(wheel.advance(end(T0 + 1_230) - 1), 'nothing before then').to.deep.equal([]);
    expect(wheel.advance(end(T0 + 1_230))).to.deep.equal(['later']);
    expect(wheel.nextDueMs(60_000)).to.equal(end(T0 + 2_000));
    wheel.cancel('sooner');
    expect(wheel.nextDueMs(60_000), 'nothing waits once it is cancelled').to.equal(null);
  });
});
