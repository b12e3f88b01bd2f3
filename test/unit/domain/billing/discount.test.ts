import { expect } from 'chai';
import {
  assertCodeImproves,
  assertDiscountPercent,
  discounted,
  isWellFormedDiscountCode,
  normalizeDiscountCode,
} from '../../../../src/domain/billing/discount';
import { customPriceOf } from '../../../../src/domain/billing/custom-price';
import { expectAppError } from '../../../support/expect-app-error';

const at = new Date('2026-06-01T12:00:00Z');

describe('discounts and custom prices', () => {
  it('takes codes case-insensitively, trimmed, letters digits and dashes only', () => {
    expect(normalizeDiscountCode(' welcome10 ')).to.equal('WELCOME10');
    expect(isWellFormedDiscountCode('partner-25')).to.equal(true);
    expect(isWellFormedDiscountCode('a b')).to.equal(false);
    expect(isWellFormedDiscountCode('ab')).to.equal(false);
  });

  it('keeps percentages whole and between 0 and 100 (invalidDiscount)', () => {
    assertDiscountPercent(0);
    assertDiscountPercent(100);
    expectAppError(() => assertDiscountPercent(101), 'invalidDiscount', { reason: 'percentOutOfRange' });
    expectAppError(() => assertDiscountPercent(12.5), 'invalidDiscount');
  });

  it('never lets a code lower the discount the organization has (invalidDiscount lowerThanCurrent)', () => {
    assertCodeImproves(null, 10);
    assertCodeImproves({ percent: 10, code: 'WELCOME10', appliedAt: at }, 25);
    expectAppError(() => assertCodeImproves({ percent: 25, code: 'PARTNER25', appliedAt: at }, 10), 'invalidDiscount', {
      reason: 'lowerThanCurrent',
      currentPercent: 25,
    });
  });

  it("rounds discounted amounts down to the cent, in the organization's favour", () => {
    expect(discounted(1950, { percent: 25 })).to.equal(1462);
    expect(discounted(1950, null)).to.equal(1950);
    expect(discounted(1950, { percent: 100 })).to.equal(0);
  });

  it('takes custom prices of at most two decimals in an upper-case ISO currency (invalidCustomPrice)', () => {
    expect(customPriceOf({ priceMonthly: 9.99, currency: 'EUR' })).to.deep.equal({ priceMonthly: 9.99, currency: 'EUR', note: null });
    expectAppError(() => customPriceOf({ priceMonthly: 9.999, currency: 'EUR' }), 'invalidCustomPrice', { fields: ['priceMonthly'] });
    expectAppError(() => customPriceOf({ priceMonthly: -1, currency: 'eur' }), 'invalidCustomPrice', {
      fields: ['priceMonthly', 'currency'],
    });
  });
});
