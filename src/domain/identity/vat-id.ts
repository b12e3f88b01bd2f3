/**
 * A VAT identification number as the EU's VIES service takes it: the member state's code (Greece is
 * `EL` there, not `GR`) and the number without it, spaces, dots and dashes. A vatId written with
 * its country prefix (`DE 123 456 789`) wins over the organization's countryCode. Null when no
 * member-state code can be found.
 */
export interface VatNumber {
  readonly countryCode: string;
  readonly number: string;
}

const MEMBER_STATES = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'EL',
  'ES',
  'FI',
  'FR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'XI',
]);

const viesCode = (code: string): string => (code === 'GR' ? 'EL' : code);

export function vatNumberOf(vatId: string, countryCode: string | null): VatNumber | null {
  const compact = vatId.toUpperCase().replace(/[\s.\-/]/g, '');
  const prefix = viesCode(compact.slice(0, 2));
  if (/^[A-Z]{2}$/.test(compact.slice(0, 2)) && MEMBER_STATES.has(prefix)) {
    return compact.length > 2 ? { countryCode: prefix, number: compact.slice(2) } : null;
  }
  const country = countryCode === null ? null : viesCode(countryCode.toUpperCase());
  return country !== null && MEMBER_STATES.has(country) && compact !== '' ? { countryCode: country, number: compact } : null;
}

/** What the registry answered about a number. */
export interface VatValidation {
  readonly valid: boolean;
  readonly countryCode: string;
  readonly number: string;
  /** The registered name and address, where the member state discloses them. */
  readonly name: string | null;
  readonly address: string | null;
  readonly checkedAt: Date;
}
