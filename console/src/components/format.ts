/** Dates and durations as the console shows them (the browser's locale and time zone). */
export const dateTime = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

export const ms = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : `${Math.round(value)} ms`);

export const percent = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `${value.toFixed(2)} %`;

export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}
