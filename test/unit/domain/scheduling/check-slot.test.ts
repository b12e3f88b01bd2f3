import { expect } from 'chai';
import { latenessMs, nextSlotAfter, phaseOf, slotAfterCompletion } from '../../../../src/domain/scheduling/check-slot';

const MIN = 60_000;

describe('check slots', () => {
  it('gives each monitor and location a stable phase inside the interval', () => {
    expect(phaseOf(42, 'eu-central', 5 * MIN)).to.equal(phaseOf(42, 'eu-central', 5 * MIN));
    expect(phaseOf(42, 'eu-central', 5 * MIN)).to.be.within(0, 5 * MIN - 1);
    expect(phaseOf(42, 'us-east', 5 * MIN)).not.to.equal(phaseOf(42, 'eu-central', 5 * MIN));
  });

  it('spreads 10,000 monitors of one interval over it (no second holds more than a few)', () => {
    const perSecond = new Map<number, number>();
    for (let id = 1; id <= 10_000; id++) {
      const second = Math.floor(phaseOf(id, 'eu-central', MIN) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(perSecond.size).to.equal(60);
    expect(Math.max(...perSecond.values())).to.be.below(10_000 / 60 * 1.5);
  });

  it('finds the next slot strictly after a time on the grid', () => {
    const phase = 7_000;
    const slot = nextSlotAfter(new Date(10 * MIN), MIN, phase);
    expect(slot.getTime()).to.equal(10 * MIN + phase);
    expect(nextSlotAfter(slot, MIN, phase).getTime()).to.equal(11 * MIN + phase);
  });

  it('moves to the following slot after an on-time completion', () => {
    expect(slotAfterCompletion(new Date(10 * MIN + 7_800), MIN, 7_000).getTime()).to.equal(11 * MIN + 7_000);
  });

  it('snaps an off-grid run (trigger-check) back onto the grid', () => {
    expect(slotAfterCompletion(new Date(10 * MIN + 31_000), MIN, 7_000).getTime()).to.equal(11 * MIN + 7_000);
  });

  it('skips slots missed while the checker was down instead of bursting', () => {
    expect(slotAfterCompletion(new Date(15 * MIN + 30_000), MIN, 7_000).getTime()).to.equal(16 * MIN + 7_000);
  });

  it('measures lateness from the slot, never negative', () => {
    expect(latenessMs(new Date(1000), new Date(1250))).to.equal(250);
    expect(latenessMs(new Date(1000), new Date(900))).to.equal(0);
  });
});
