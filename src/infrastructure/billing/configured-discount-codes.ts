import type { DiscountCodes } from '../../application/billing/ports';

/** The discount codes the operator configured (BILLING_DISCOUNT_CODES), upper-case code to percent. */
export class ConfiguredDiscountCodes implements DiscountCodes {
  constructor(private readonly codes: Readonly<Record<string, number>>) {}

  async percentOf(code: string): Promise<number | null> {
    return Object.hasOwn(this.codes, code) ? this.codes[code]! : null;
  }
}
