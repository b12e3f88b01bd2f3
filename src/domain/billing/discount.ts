import { AppError } from '../shared/app-error';

/** A discount on what the organization is charged: a percentage, from a code or granted by platform staff. */
export interface Discount {
  readonly percent: number;
  /** The code it came from; null when platform staff granted the percentage directly. */
  readonly code: string | null;
  readonly appliedAt: Date;
}

/** Codes are case-insensitive: letters, digits and dashes, 3 to 32 of them; kept upper-case. */
const CODE = /^[A-Z0-9][A-Z0-9-]{2,31}$/;

export function normalizeDiscountCode(code: string): string {
  return code.trim().toUpperCase();
}

export function isWellFormedDiscountCode(code: string): boolean {
  return CODE.test(normalizeDiscountCode(code));
}

/** A percentage between 0 (no discount: clears it) and 100, in whole percent. */
export function assertDiscountPercent(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) {
    throw new AppError('invalidDiscount', { percent, reason: 'percentOutOfRange' });
  }
}

/**
 * A code may only replace the organization's discount when it does not lower it: applying a
 * smaller code over a larger granted discount would silently take money from the organization.
 */
export function assertCodeImproves(current: Discount | null, percent: number): void {
  if (current && current.percent > percent) {
    throw new AppError('invalidDiscount', { reason: 'lowerThanCurrent', currentPercent: current.percent, percent });
  }
}

/** The amount after the discount, rounded to the cent in the organization's favour. */
export function discounted(cents: number, discount: Pick<Discount, 'percent'> | null): number {
  if (!discount || discount.percent === 0) return cents;
  return Math.floor((cents * (100 - discount.percent)) / 100);
}
