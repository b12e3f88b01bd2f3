/**
 * A mandate is the organization's standing permission to be charged. pending: started, not yet
 * confirmed by the provider; active: charges may be taken; failed: refused or revoked.
 */
export const MANDATE_STATUSES = ['pending', 'active', 'failed'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

export function isMandateStatus(value: unknown): value is MandateStatus {
  return typeof value === 'string' && (MANDATE_STATUSES as readonly string[]).includes(value);
}
