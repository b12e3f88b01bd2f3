import { expect } from 'chai';
import sinon from 'sinon';
import { instantOf, localDate, wallTimeOf } from '../../../../src/domain/shared/zoned-time';

/** The wall time as Intl reads it in the zone: what every zone, UTC included, must agree with. */
function intlWallTime(zone: string, instant: Date) {
  const fields: Record<string, number> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  for (const part of format.formatToParts(instant)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  return { year: fields.year, month: fields.month, day: fields.day, hour: fields.hour! % 24, minute: fields.minute };
}

describe('zoned time', () => {
  const instants = [
    '2024-02-29T23:59:59.999Z',
    '2024-12-31T23:30:00Z',
    '2025-01-01T00:00:00Z',
    '2025-03-30T01:00:00Z',
    '2025-10-26T00:59:00Z',
    '1999-12-31T12:07:41Z',
  ].map((iso) => new Date(iso));

  it('reads UTC and Etc/UTC as Intl does, without asking Intl (its first formatter pages in ICU data)', () => {
    const expected = instants.map((instant) => intlWallTime('UTC', instant));
    const formats = sinon.spy(Intl, 'DateTimeFormat');
    try {
      for (const zone of ['UTC', 'Etc/UTC']) {
        expect(instants.map((instant) => wallTimeOf(zone, instant))).to.deep.equal(expected);
        expect(localDate(zone, instants[0]!)).to.equal('2024-02-29');
        expect(instantOf(zone, { year: 2025, month: 1, day: 1, hour: 0, minute: 0 }).toISOString()).to.equal('2025-01-01T00:00:00.000Z');
      }
      expect(formats.called, 'Intl.DateTimeFormat made for UTC').to.equal(false);
    } finally {
      formats.restore();
    }
  });

  it('reads other zones through Intl, daylight saving included', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata']) {
      expect(instants.map((instant) => wallTimeOf(zone, instant))).to.deep.equal(instants.map((instant) => intlWallTime(zone, instant)));
    }
    expect(wallTimeOf('Europe/Berlin', new Date('2025-03-30T01:00:00Z'))).to.deep.equal({
      year: 2025,
      month: 3,
      day: 30,
      hour: 3,
      minute: 0,
    });
  });
});
