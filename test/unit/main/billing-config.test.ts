import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/main/config';

describe('configuration: billing', () => {
  it('has no discount codes and no return page by default', () => {
    const config = loadConfig({});
    expect(config.billingDiscountCodes).to.deep.equal({});
    expect(config.billingReturnPageUrl).to.equal(undefined);
  });

  it('reads discount codes as CODE=percent, kept upper-case', () => {
    expect(loadConfig({ BILLING_DISCOUNT_CODES: 'welcome10=10, Partner-25=25' }).billingDiscountCodes).to.deep.equal({
      WELCOME10: 10,
      'PARTNER-25': 25,
    });
    expect(loadConfig({ BILLING_RETURN_PAGE_URL: 'https://app.example.com/billing' }).billingReturnPageUrl).to.equal(
      'https://app.example.com/billing',
    );
  });

  it('refuses a code without a percentage, a percentage out of 1-100 and a return page that is not http(s)', () => {
    expect(() => loadConfig({ BILLING_DISCOUNT_CODES: 'WELCOME10' })).to.throw(
      ConfigError,
      /^Invalid configuration: BILLING_DISCOUNT_CODES: /,
    );
    expect(() => loadConfig({ BILLING_DISCOUNT_CODES: 'FREE=0' })).to.throw(ConfigError, /BILLING_DISCOUNT_CODES/);
    expect(() => loadConfig({ BILLING_DISCOUNT_CODES: 'MORE=101' })).to.throw(ConfigError, /BILLING_DISCOUNT_CODES/);
    expect(() => loadConfig({ BILLING_RETURN_PAGE_URL: 'javascript:alert(1)' })).to.throw(ConfigError, /BILLING_RETURN_PAGE_URL/);
  });
});
