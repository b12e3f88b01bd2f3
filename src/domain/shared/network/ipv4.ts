/**
 * IPv4 literals in every spelling a resolver or URL parser accepts (inet_aton and the WHATWG URL
 * standard agree): one to four dot-separated parts, each decimal, `0x` hex or leading-zero octal,
 * the last part filling the remaining bytes (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`).
 */

/** WHATWG "ends in a number": such a host is an IPv4 literal or invalid, never a name. */
export function endsInNumber(host: string): boolean {
  const labels = host.split('.');
  if (labels.length > 1 && labels[labels.length - 1] === '') labels.pop();
  const last = labels[labels.length - 1] ?? '';
  return /^[0-9]+$/.test(last) || /^0x[0-9a-f]*$/i.test(last);
}

function parsePart(part: string): number | null {
  if (part === '') return null;
  let radix = 10;
  let digits = part;
  if (/^0x/i.test(part)) {
    radix = 16;
    digits = part.slice(2);
    if (digits === '') return 0;
  } else if (part.length > 1 && part.startsWith('0')) {
    radix = 8;
    digits = part.slice(1);
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits) || digits.length > 16) return null;
  return parseInt(digits, radix);
}

/** The four bytes of an IPv4 literal, or null when the text is not one (one trailing dot allowed). */
export function parseIpv4(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parsePart(part);
    if (value === null) return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  return [Math.floor(value / 2 ** 24) % 256, Math.floor(value / 2 ** 16) % 256, Math.floor(value / 2 ** 8) % 256, value % 256];
}

/** Strict dotted decimal (four parts 0-255, no leading zeros), as embedded in IPv6 text. */
export function parseDottedQuad(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^(0|[1-9][0-9]{0,2})$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

export const formatIpv4 = (bytes: readonly number[]): string => bytes.join('.');
