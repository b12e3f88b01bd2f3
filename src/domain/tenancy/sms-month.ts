/** The calendar month (UTC) SMS usage is counted in, as its first day: `2026-11-01`. */
export function smsMonthOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}
