import { expect } from 'chai';
import { latenessMs, nextSlotAfter, slotAfterCompletion } from '../../../../src/domain/scheduling/check-slot';

const MIN = 60_000;
const at = (slot: number) => ({ slot: new Date(slot), intervalMs: MIN, phaseMs: 7_000 });

describe('check slots', () => {
  it('finds the next slot strictly after a time on the grid', () => {
    const phase = 7_000;
    const slot = nextSlotAfter(new Date(10 * MIN), MIN, phase);
    expect(slot.getTime()).to.equal(10 * MIN + phase);
    expect(nextSlotAfter(slot, MIN, phase).getTime()).to.equal(11 * MIN + phase);
  });

  it('moves to the following slot after an on-time completion', () => {
    expect(slotAfterCompletion(at(10 * MIN + 7_000), new Date(10 * MIN + 7_800)).getTime()).to.equal(11 * MIN + 7_000);
  });

  it('snaps an off-grid run (trigger-check) back onto the grid', () => {
    expect(slotAfterCompletion(at(10 * MIN + 30_000), new Date(10 * MIN + 31_000)).getTime()).to.equal(11 * MIN + 7_000);
  });

  it('skips slots missed while the checker was down instead of bursting', () => {
    expect(slotAfterCompletion(at(10 * MIN + 7_000), new Date(15 * MIN + 30_000)).getTime()).to.equal(16 * MIN + 7_000);
  });

  it('never hands back the slot just filled, even when the check finished before it (a timer firing early)', () => {
    expect(slotAfterCompletion(at(10 * MIN + 7_000), new Date(10 * MIN + 6_999)).getTime()).to.equal(11 * MIN + 7_000);
  });

  it('measures lateness from the slot, never negative', () => {
    expect(latenessMs(new Date(1000), new Date(1250))).to.equal(250);
    expect(latenessMs(new Date(1000), new Date(900))).to.equal(0);
  });
});
