/** Prices are kept as decimal amounts of the billing currency (package tiers); charges are whole cents. */
export function centsOf(amount: number): number {
  return Math.round(amount * 100);
}

/** The currency charges are recorded in: the platform bills in one currency. */
export const BILLING_CURRENCY = 'EUR';
