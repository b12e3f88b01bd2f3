import { expect } from 'chai';
import { HeldChecks, heldOf, keyOf, type HeldCheck } from '../../../../../src/application/scheduling/dispatcher/held-checks';
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
});
