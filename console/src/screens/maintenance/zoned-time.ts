/**
 * Wall-clock times in an IANA time zone, with the browser's Intl only: what a maintenance window's
 * form reads (a local date and time in the window's zone) and how its occurrences are shown.
 */

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  return format;
}

/** Whether the browser knows the zone (the API decides in the end). */
export function isZone(zone: string): boolean {
  try {
    formatIn(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of an instant in a zone. */
export function wallOf(instant: number, zone: string): Wall {
  const parts = Object.fromEntries(
    formatIn(zone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: String(parts.weekday),
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds (seconds ignored). */
function offsetAt(instant: number, zone: string): number {
  const w = wallOf(instant, zone);
  const whole = Math.floor(instant / 60_000) * 60_000;
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - whole;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * The instant (ISO, UTC) of a local date and time (`2027-03-21T03:00`, a datetime-local value) in a
 * zone; null when the text is not one. A time the zone skips (a spring-forward gap) lands after the gap.
 */
export function instantOf(local: string, zone: string): string | null {
  const m = LOCAL.exec(local);
  if (!m || !isZone(zone)) return null;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  let instant = asUtc - offsetAt(asUtc, zone);
  const again = asUtc - offsetAt(instant, zone);
  if (again !== instant) instant = Math.max(instant, again);
  return new Date(instant).toISOString();
}

const two = (n: number) => String(n).padStart(2, '0');

/** The datetime-local value of an instant in a zone (for editing a saved window). */
export function localOf(iso: string, zone: string): string {
  const w = wallOf(Date.parse(iso), zone);
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}

/** An instant as the zone's wall clock: "Sun 2027-03-21 03:00". */
export function inZone(iso: string, zone: string): string {
  const w = wallOf(Date.parse(iso), zone);
  return `${w.weekday} ${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}`;
}

/** A span in a zone: "Sun 2027-03-21 03:00 – 05:00" (the end's date only when it differs). */
export function spanInZone(start: string, end: string, zone: string): string {
  const from = inZone(start, zone);
  const to = inZone(end, zone);
  return from.slice(0, 14) === to.slice(0, 14) ? `${from} – ${to.slice(15)}` : `${from} – ${to}`;
}

/** The zones the browser knows, for the zone field's suggestions. */
export function knownZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['UTC'];
}

/** The browser's own zone, the form's default. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
