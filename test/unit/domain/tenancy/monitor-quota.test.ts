import { expect } from 'chai';
import { decideMonitorQuota, type MonitorQuotaInput } from '../../../../src/domain/tenancy/monitor-quota';
import { codeOf } from '../../../support/expect-app-error';

const tiers = [
  { monitorLimit: 5, priceMonthly: 0 },
  { monitorLimit: 10, priceMonthly: 0 },
  { monitorLimit: 20, priceMonthly: 15 },
];
const input = (overrides: Partial<MonitorQuotaInput>): MonitorQuotaInput => ({
  monitorCount: 0,
  tiers,
  currentTierIndex: 0,
  autoUpgrade: false,
  viaAgent: false,
  allowPaidQuotaUpgrade: false,
  ...overrides,
});
const quotaCode = (i: MonitorQuotaInput) => codeOf(() => decideMonitorQuota(i));

describe('decideMonitorQuota', () => {
  it("fits below the current tier's limit", () => {
    expect(decideMonitorQuota(input({ monitorCount: 4 }))).to.deep.equal({ kind: 'withinQuota' });
  });

  it('answers monitorQuotaReached at the limit without automatic upgrade', () => {
    expect(quotaCode(input({ monitorCount: 5 }))).to.equal('monitorQuotaReached');
  });

  it('moves to the next tier with automatic upgrade', () => {
    expect(decideMonitorQuota(input({ monitorCount: 5, autoUpgrade: true }))).to.deep.equal({
      kind: 'upgrade',
      toTierIndex: 1,
      tier: tiers[1],
    });
  });

  it('answers monitorQuotaNoHigherTier at the top tier', () => {
    expect(quotaCode(input({ monitorCount: 20, currentTierIndex: 2, autoUpgrade: true }))).to.equal('monitorQuotaNoHigherTier');
  });

  it('lets an agent move to a tier of the same price, but a dearer one only with allowPaidQuotaUpgrade', () => {
    expect(decideMonitorQuota(input({ monitorCount: 5, autoUpgrade: true, viaAgent: true })).kind).to.equal('upgrade');
    expect(quotaCode(input({ monitorCount: 10, currentTierIndex: 1, autoUpgrade: true, viaAgent: true }))).to.equal(
      'paidQuotaUpgradeNotAuthorized',
    );
    expect(
      decideMonitorQuota(
        input({
          monitorCount: 10,
          currentTierIndex: 1,
          autoUpgrade: true,
          viaAgent: true,
          allowPaidQuotaUpgrade: true,
        }),
      ),
    ).to.deep.include({ toTierIndex: 2 });
  });
});
