import { expect } from 'chai';
import { choosePackage, defaultPackage } from '../../../../src/domain/tenancy/package-choice';
import { aPackageConfig } from '../../../support/builders/tenancy';

const now = new Date('2026-01-01T00:00:00Z');
const aPackage = (id: number, key: string, displayName: string, isDefault = false) =>
  Object.assign(aPackageConfig({ publicId: `p-${id}`, key, displayName, isDefault, now }), { id });

describe('choosePackage (customer rules 1 and 2)', () => {
  const basic = aPackage(1, 'basic', 'Pro');
  const pro = aPackage(2, 'pro', 'Professional');
  const packages = [basic, pro];

  it('picks by packageId', () => expect(choosePackage(packages, { packageId: 2 })).to.equal(pro));
  it('picks by key, case-insensitively', () => expect(choosePackage(packages, { packageType: ' PRO ' })).to.equal(pro));
  it('picks by display name when no key matches', () => expect(choosePackage(packages, { packageType: 'professional' })).to.equal(pro));
  it("prefers a key over another package's display name", () => expect(choosePackage(packages, { packageType: 'pro' })).to.equal(pro));
  it('accepts packageId and packageType naming the same package', () =>
    expect(choosePackage(packages, { packageId: 1, packageType: 'basic' })).to.equal(basic));

  const refused: Array<[string, object]> = [
    ['an unknown packageId', { packageId: 3 }],
    ['an unknown packageType', { packageType: 'gold' }],
    ['packageId and packageType naming different packages', { packageId: 1, packageType: 'professional' }],
    ['neither', {}],
  ];
  for (const [what, choice] of refused) {
    it(`refuses ${what} with invalidPackageType`, () => {
      expect(() => choosePackage(packages, choice))
        .to.throw()
        .with.property('code', 'invalidPackageType');
    });
  }
});

describe('defaultPackage', () => {
  it('is the flagged package, else the oldest, else none', () => {
    expect(defaultPackage([aPackage(2, 'b', 'B'), aPackage(3, 'c', 'C', true)])?.id).to.equal(3);
    expect(defaultPackage([aPackage(5, 'b', 'B'), aPackage(4, 'c', 'C')])?.id).to.equal(4);
    expect(defaultPackage([])).to.equal(null);
  });
});

describe('PackageConfig quota tiers', () => {
  const tiers = (...limits: Array<[number, number]>) => limits.map(([monitorLimit, priceMonthly]) => ({ monitorLimit, priceMonthly }));
  const make = (quotaTiers: ReturnType<typeof tiers>) => aPackageConfig({ minCheckIntervalMinutes: 1, quotaTiers, now });

  it('needs at least one tier, rising limits and non-decreasing prices', () => {
    expect(() => make([]))
      .to.throw()
      .with.property('code', 'validationFailed');
    expect(() => make(tiers([10, 0], [10, 5])))
      .to.throw()
      .with.property('code', 'validationFailed');
    expect(() => make(tiers([10, 9], [20, 5])))
      .to.throw()
      .with.property('code', 'validationFailed');
    expect(make(tiers([10, 0], [20, 5])).monitorLimit).to.equal(10);
  });

  it('clamps a stored tier index to the tiers it has', () => {
    const p = make(tiers([10, 0], [20, 5]));
    expect([p.tierIndex(-1), p.tierIndex(1), p.tierIndex(7)]).to.deep.equal([0, 1, 1]);
  });
});
