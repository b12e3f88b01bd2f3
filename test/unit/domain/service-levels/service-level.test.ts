import { expect } from 'chai';
import { burnRate, serviceLevel, type ObjectiveMeasure } from '../../../../src/domain/service-levels/service-level';

const DAY = 24 * 60 * 60;
const measure = (m: Partial<ObjectiveMeasure>): ObjectiveMeasure => ({
  goodSeconds: 0,
  badSeconds: 0,
  expectedSeconds: 0,
  maintenanceSeconds: 0,
  remainingSeconds: 0,
  lanes: 1,
  ...m,
});

describe('service level: attainment and error budget', () => {
  it('a 30-day window at 99.9 % with 21.6 bad minutes has spent half of its 43.2-minute budget', () => {
    const bad = 21.6 * 60;
    const level = serviceLevel(99.9, measure({ goodSeconds: 30 * DAY - bad, badSeconds: bad, expectedSeconds: 30 * DAY }));
    expect(level.attainmentPercent).to.equal(99.95);
    expect(level.met).to.equal(true);
    expect(level.budget).to.deep.equal({ totalMinutes: 43.2, spentMinutes: 21.6, leftMinutes: 21.6, leftPercent: 50 });
    expect(level.unknownMinutes).to.equal(0);
  });

  it('reports unknown time apart: it neither spends nor earns budget', () => {
    const level = serviceLevel(
      99,
      measure({ goodSeconds: 0.9 * 10 * DAY * 0.99, badSeconds: 0.9 * 10 * DAY * 0.01, expectedSeconds: 10 * DAY }),
    );
    expect(level.attainmentPercent).to.equal(99);
    expect(level.unknownPercent).to.equal(10);
    expect(level.unknownMinutes).to.equal(1440);
    // The budget is 1 % of the 9 known days; all of it is spent, none of the unknown day counted either way.
    expect(level.budget.totalMinutes).to.equal(129.6);
    expect(level.budget.leftPercent).to.equal(0);
  });

  it('reports maintenance in minutes, out of every other figure', () => {
    const level = serviceLevel(99.9, measure({ goodSeconds: 6 * DAY, expectedSeconds: 6 * DAY, maintenanceSeconds: DAY }));
    expect(level.maintenanceMinutes).to.equal(1440);
    expect(level.attainmentPercent).to.equal(100);
    expect(level.unknownMinutes).to.equal(0);
  });

  it('counts a calendar month’s rest in its budget', () => {
    const level = serviceLevel(99.9, measure({ goodSeconds: 10 * DAY, expectedSeconds: 10 * DAY, remainingSeconds: 20 * DAY }));
    expect(level.budget.totalMinutes).to.equal(43.2);
    expect(level.budget.leftPercent).to.equal(100);
  });

  it('goes negative once overspent, and below target is not met', () => {
    const level = serviceLevel(99.9, measure({ goodSeconds: DAY - 3600, badSeconds: 3600, expectedSeconds: DAY }));
    expect(level.met).to.equal(false);
    expect(level.budget.leftPercent).to.be.lessThan(0);
    expect(level.budget.leftMinutes).to.be.lessThan(0);
  });

  it('gives minutes per lane: two locations do not double the budget', () => {
    const one = serviceLevel(99.9, measure({ goodSeconds: DAY - 60, badSeconds: 60, expectedSeconds: DAY }));
    const two = serviceLevel(99.9, measure({ goodSeconds: 2 * (DAY - 60), badSeconds: 120, expectedSeconds: 2 * DAY, lanes: 2 }));
    expect(two.budget).to.deep.equal(one.budget);
  });

  it('knows nothing of an empty window', () => {
    const level = serviceLevel(99.9, measure({ expectedSeconds: 3600 }));
    expect(level.attainmentPercent).to.equal(null);
    expect(level.met).to.equal(null);
    expect(level.budget.leftPercent).to.equal(null);
    expect(level.unknownPercent).to.equal(100);
  });
});

describe('service level: burn rate', () => {
  it('is the bad share of known time over the allowed share', () => {
    expect(burnRate(99.9, 999, 1)).to.be.closeTo(1, 1e-9);
    expect(burnRate(99, 856, 144)).to.be.closeTo(14.4, 1e-9);
  });

  it('is null when nothing is known and 0 with no bad time', () => {
    expect(burnRate(99.9, 0, 0)).to.equal(null);
    expect(burnRate(99.9, 3600, 0)).to.equal(0);
  });
});
