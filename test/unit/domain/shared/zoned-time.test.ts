import { expect } from 'chai';
import sinon from 'sinon';
import { instantOf, localDate, wallTimeOf } from '../../../../src/domain/shared/zoned-time';

describe('zoned time', () => {
  const instants = [
    '2024-02-29T23:59:59.999Z',
    '2024-12-31T23:30:00Z',
    '2025-01-01T00:00:00Z',
    '2025-03-30T01:00:00Z',
    '2025-10-26T00:59:00Z',
    '1999-12-31T12:07:41Z',
  ].map((iso) => new Date(iso));

  it('reads UTC and Etc/UTC as Intl reads a zone always at UTC, without asking Intl (its first formatter pages in ICU data)', () => {
    // Etc/GMT is UTC by every rule too, but not on the fast path: it goes through Intl.
    const expected = instants.map((instant) => wallTimeOf('Etc/GMT', instant));
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
    const at = new Date('2025-03-30T01:00:00Z');
    expect(wallTimeOf('Europe/Berlin', at)).to.deep.equal({ year: 2025, month: 3, day: 30, hour: 3, minute: 0 });
    expect(wallTimeOf('Europe/Berlin', new Date('2025-03-30T00:59:00Z'))).to.deep.equal({
      year: 2025,
      month: 3,
      day: 30,
      hour: 1,
      minute: 59,
    });
    expect(wallTimeOf('America/New_York', new Date('2025-01-01T00:00:00Z'))).to.deep.equal({
      year: 2024,
      month: 12,
      day: 31,
      hour: 19,
      minute: 0,
    });
    expect(wallTimeOf('Asia/Kolkata', new Date('2025-01-01T00:00:00Z'))).to.deep.equal({
      year: 2025,
      month: 1,
      day: 1,
      hour: 5,
      minute: 30,
    });
  });
});
