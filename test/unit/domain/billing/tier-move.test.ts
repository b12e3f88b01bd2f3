import { expect } from 'chai';
import { decideTierMove, type TierMoveInput } from '../../../../src/domain/billing/tier-move';
import { expectAppError } from '../../../support/expect-app-error';

const TIERS = [
  { monitorLimit: 1, priceMonthly: 0 },
  { monitorLimit: 2, priceMonthly: 19.5 },
  { monitorLimit: 4, priceMonthly: 29 },
];
const move = (overrides: Partial<TierMoveInput>) =>
  decideTierMove({
    tiers: TIERS,
    currentTierIndex: 0,
    targetTierIndex: 1,
    monitorCount: 0,
    viaAgent: false,
    allowPaidQuotaUpgrade: false,
    ...overrides,
  });

describe('quota tier moves', () => {
  it('moves up, costing the difference of the monthly prices in cents', () => {
    expect(move({ currentTierIndex: 1, targetTierIndex: 2 })).to.deep.include({
      kind: 'move',
      fromTierIndex: 1,
      toTierIndex: 2,
      chargeCents: 950,
    });
    expect(move({ targetTierIndex: 1 })).to.deep.include({ chargeCents: 1950 });
  });

  it('moves down at no cost while the monitors fit the lower limit (equal to it included)', () => {
    expect(move({ currentTierIndex: 2, targetTierIndex: 1, monitorCount: 2 })).to.deep.include({
      kind: 'move',
      toTierIndex: 1,
      chargeCents: 0,
    });
  });

  it('refuses a tier whose limit is below the monitors the customer has (quotaTierBelowUsage)', () => {
    expectAppError(() => move({ currentTierIndex: 2, targetTierIndex: 0, monitorCount: 2 }), 'quotaTierBelowUsage', {
      monitorCount: 2,
      monitorLimit: 1,
    });
  });

  it('refuses a tier the package does not have (invalidQuotaTier)', () => {
    expectAppError(() => move({ targetTierIndex: 3 }), 'invalidQuotaTier', { tierIndex: 3, tierCount: 3 });
    expectAppError(() => move({ targetTierIndex: -1 }), 'invalidQuotaTier');
  });

  it('leaves the current tier unchanged, even when a shrunken package left the stored index past the top', () => {
    expect(move({ targetTierIndex: 0 })).to.deep.equal({ kind: 'unchanged', tierIndex: 0 });
    expect(move({ currentTierIndex: 7, targetTierIndex: 2 })).to.deep.equal({ kind: 'unchanged', tierIndex: 2 });
  });

  it('makes an agent opt in to a dearer tier (paidQuotaUpgradeNotAuthorized), not to a free or lower one', () => {
    expectAppError(() => move({ viaAgent: true }), 'paidQuotaUpgradeNotAuthorized', { priceMonthly: 19.5 });
    expect(move({ viaAgent: true, allowPaidQuotaUpgrade: true })).to.deep.include({ kind: 'move', chargeCents: 1950 });
    expect(move({ viaAgent: true, currentTierIndex: 2, targetTierIndex: 1 })).to.deep.include({ kind: 'move', chargeCents: 0 });
    const free = [
      { monitorLimit: 1, priceMonthly: 0 },
      { monitorLimit: 5, priceMonthly: 0 },
    ];
    expect(move({ viaAgent: true, tiers: free })).to.deep.include({ kind: 'move', chargeCents: 0 });
  });
});
