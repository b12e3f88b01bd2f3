import type { CalendarView } from '../../../application/on-call/read-calendar-feed';

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 3.3.11). */
const text = (value: string) => value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** UTC DATE-TIME form, e.g. 20260329T070000Z. */
const utc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Lines longer than 75 octets are folded: CRLF then one space (RFC 5545 3.1), never inside a UTF-8 sequence. */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > (out.length ? 74 : 75)) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/**
 * An on-call feed as an iCalendar object: one VEVENT per shift, in UTC. A UID is stable across
 * polls for the same shift, so calendar apps update events instead of duplicating them.
 */
export function renderCalendar(view: CalendarView): string {
  const stamp = utc(view.generatedAt);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Monitoring Service//On-call//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(view.name)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  for (const shift of view.shifts) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${shift.scheduleId}-${shift.userId}-${shift.start.getTime()}@on-call`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${utc(shift.start)}`,
      `DTEND:${utc(shift.end)}`,
      `SUMMARY:${text(`On call: ${shift.userName} (${shift.scheduleName})`)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
