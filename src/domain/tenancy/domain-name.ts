const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Canonical form of a domain name already in ASCII (IDNs arrive as punycode): lowercase, without a
 * trailing dot. Answers null unless it has at least two labels of letters, digits and inner hyphens
 * (at most 63 characters each, 253 in all) and an alphabetic top-level label, so IP literals and
 * single-label names are refused.
 */
export function normalizeDomainName(input: string): string | null {
  const name = input.trim().toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return null;
  const labels = name.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  const top = labels[labels.length - 1]!;
  return /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(top) ? name : null;
}
