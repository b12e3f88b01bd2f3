import { AppError } from '../shared/app-error';

/**
 * What the organization charges one of its customers per month, in place of the price of the
 * customer's package tier. It is the organization's own resale price: the platform does not charge
 * it, it shows it (next to the package price) so an agency keeps its price list in one place.
 */
export interface CustomPrice {
  readonly priceMonthly: number;
  readonly currency: string;
  readonly note: string | null;
}

const CURRENCY = /^[A-Z]{3}$/;

export function customPriceOf(input: { priceMonthly: number; currency: string; note?: string | null }): CustomPrice {
  const issues: string[] = [];
  if (!Number.isFinite(input.priceMonthly) || input.priceMonthly < 0 || input.priceMonthly > 1_000_000) issues.push('priceMonthly');
  else if (Math.abs(input.priceMonthly * 100 - Math.round(input.priceMonthly * 100)) > 1e-6) issues.push('priceMonthly');
  if (!CURRENCY.test(input.currency)) issues.push('currency');
  if (issues.length > 0) throw new AppError('invalidCustomPrice', { fields: issues });
  return { priceMonthly: input.priceMonthly, currency: input.currency, note: input.note ?? null };
}

/** Reads a stored customPricing JSON back; anything else stored there (older shapes) is shown as is by the caller. */
export function storedCustomPrice(value: unknown): CustomPrice | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.priceMonthly !== 'number' || typeof v.currency !== 'string') return null;
  return { priceMonthly: v.priceMonthly, currency: v.currency, note: typeof v.note === 'string' ? v.note : null };
}
