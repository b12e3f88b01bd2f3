/** Hundredths of a percent in a whole: shares are reported to two decimals. */
const UNITS = 10_000;

/**
 * Each part's share of their sum, in hundredths of a percent (integers), apportioned by the largest
 * remainder so that the shares add up to exactly 10,000 (100.00 %): each share is its exact value
 * rounded down, and the units left over go to the parts with the largest fractions (ties to the
 * earlier part). Rounding each part on its own can make them add up to 99.99 or 100.01.
 * Negative or non-finite parts count as 0; null when nothing is left to share.
 */
export function hundredthsOfPercent(parts: readonly number[]): number[] | null {
  const clean = parts.map((part) => (Number.isFinite(part) && part > 0 ? part : 0));
  const whole = clean.reduce((sum, part) => sum + part, 0);
  if (!(whole > 0) || !Number.isFinite(whole)) return null;
  const exact = clean.map((part) => (part / whole) * UNITS);
  const shares = exact.map((value) => Math.min(UNITS, Math.floor(value)));
  let left = UNITS - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - shares[index] }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  // Floating-point quotients can leave `left` a unit off either way; the loop settles both.
  for (let i = 0; left !== 0; i = (i + 1) % byRemainder.length) {
    const { index } = left > 0 ? byRemainder[i] : byRemainder[byRemainder.length - 1 - i];
    if (left > 0) {
      shares[index] += 1;
      left -= 1;
    } else if (shares[index] > 0) {
      shares[index] -= 1;
      left += 1;
    }
  }
  return shares;
}

/** A share in hundredths as the percentage the API shows (two decimals). */
export const asPercent = (hundredths: number): number => hundredths / 100;
