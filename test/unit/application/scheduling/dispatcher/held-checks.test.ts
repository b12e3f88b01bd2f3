import { expect } from 'chai';
import {
  askCheckAt,
  HeldChecks,
  heldOf,
  keyOf,
  markStarted,
  nextSlotOf,
  type HeldCheck,
} from '../../../../../src/application/scheduling/dispatcher/held-checks';
import { CLOCK_START } from '../../../../support/manual-clock';

const row = (monitorId: number, location = 'eu'): HeldCheck =>
  heldOf({ monitorId, location, slot: CLOCK_START, intervalMs: 60_000, phaseMs: 0 }, null);

describe('HeldChecks (the rows a worker holds)', () => {
  it('counts rows per location, a replaced row once, and marks the replaced one no longer current', () => {
    const held = new HeldChecks(() => undefined);
    const first = row(1);
    held.keep(first);
    held.keep(row(2));
    held.keep(row(3, 'us'));
    const again = row(1);
    held.keep(again);
    expect([held.size, held.countIn('eu'), held.countIn('us')]).to.deep.equal([3, 2, 1]);
    expect(first.current).to.equal(false);
    expect(held.get(keyOf(1, 'eu'))).to.equal(again);
  });

  it('takes a dropped row out of the run queue and its count', () => {
    const unqueued: HeldCheck[] = [];
    const held = new HeldChecks((h) => unqueued.push(h));
    const dropped = row(1);
    held.keep(dropped);
    held.keep(row(2));
    held.drop(keyOf(1, 'eu'));
    held.drop(keyOf(9, 'eu'));
    expect(unqueued).to.deep.equal([dropped]);
    expect([dropped.current, held.has(keyOf(1, 'eu')), held.countIn('eu')]).to.deep.equal([false, false, 1]);
  });

  it('forgets every row at once, each no longer current', () => {
    const held = new HeldChecks(() => undefined);
    const rows = [row(1), row(2, 'us')];
    rows.forEach((h) => held.keep(h));
    held.clear();
    expect([held.size, held.countIn('eu'), held.countIn('us')]).to.deep.equal([0, 0, 0]);
    expect(rows.map((h) => h.current)).to.deep.equal([false, false]);
  });

  describe('checks asked of a row (trigger-checks, confirmations)', () => {
    const t0 = CLOCK_START.getTime();

    it('moves the slot to a time asked before it, and keeps its own slot and the time asked when the slot comes first', () => {
      const early = row(1);
      askCheckAt(early, t0 - 5_000);
      expect([early.slotMs, early.askedMs]).to.deep.equal([t0 - 5_000, t0 - 5_000]);
      markStarted(early, t0 - 5_000);
      expect(early.askedMs, 'served by its run').to.equal(null);

      const late = row(2);
      askCheckAt(late, t0 + 20_000);
      expect([late.slotMs, late.askedMs]).to.deep.equal([t0, t0 + 20_000]);
      markStarted(late, t0);
      expect(late.askedMs, 'a run before the time asked does not serve it').to.equal(t0 + 20_000);
      expect(nextSlotOf(late, t0 + 60_000), 'the time asked, then the grid').to.equal(t0 + 20_000);
    });

    it('lets the earliest time asked cover later ones, and a check running since the time asked serve it', () => {
      const h = row(1);
      askCheckAt(h, t0 + 20_000);
      askCheckAt(h, t0 + 30_000);
      expect(h.askedMs).to.equal(t0 + 20_000);
      askCheckAt(h, t0 + 10_000);
      expect(h.askedMs).to.equal(t0 + 10_000);

      const running = row(2);
      running.running = true;
      markStarted(running, t0);
      askCheckAt(running, t0 - 100);
      expect(running.askedMs, 'its check started after the time asked').to.equal(null);
      askCheckAt(running, t0 + 100);
      expect([running.askedMs, running.slotMs], 'asked after it started: waits for the check to end').to.deep.equal([t0 + 100, t0]);
      expect(nextSlotOf(running, t0 + 60_000)).to.equal(t0 + 100);
    });
  });
});
