import { expect } from 'chai';
import { inZone, instantOf, isZone, localOf, spanInZone } from '../../../console/src/screens/maintenance/zoned-time';

/** The maintenance form's wall-clock arithmetic (the browser's Intl, no library). */
describe('console: wall-clock times in a time zone', () => {
  it('reads a local date and time in the zone it names, on both sides of a daylight-saving change', () => {
    expect(instantOf('2027-03-21T03:00', 'Europe/Berlin')).to.equal('2027-03-21T02:00:00.000Z');
    expect(instantOf('2027-03-28T03:00', 'Europe/Berlin')).to.equal('2027-03-28T01:00:00.000Z');
    expect(instantOf('2027-01-10T10:00', 'Asia/Kolkata')).to.equal('2027-01-10T04:30:00.000Z');
    expect(instantOf('2027-01-10T10:00', 'UTC')).to.equal('2027-01-10T10:00:00.000Z');
  });

  it('puts a time the zone skips after the gap, and a time it repeats at its first occurrence', () => {
    expect(instantOf('2027-03-28T02:30', 'Europe/Berlin')).to.equal('2027-03-28T01:30:00.000Z'); // 03:30 CEST
    expect(instantOf('2026-11-01T01:30', 'America/New_York')).to.equal('2026-11-01T05:30:00.000Z'); // 01:30 EDT
  });

  it('answers null for text that is no date and time, or a zone the browser does not know', () => {
    expect(instantOf('2027-03-21', 'Europe/Berlin')).to.equal(null);
    expect(instantOf('2027-03-21T03:00', 'Mars/Olympus')).to.equal(null);
    expect(isZone('Mars/Olympus')).to.equal(false);
  });

  it('shows an instant on the zone’s wall clock, and a span with its end date only when it differs', () => {
    expect(inZone('2027-03-28T01:00:00.000Z', 'Europe/Berlin')).to.equal('Sun 2027-03-28 03:00');
    expect(localOf('2027-03-28T01:00:00.000Z', 'Europe/Berlin')).to.equal('2027-03-28T03:00');
    expect(spanInZone('2027-03-21T02:00:00.000Z', '2027-03-21T04:00:00.000Z', 'Europe/Berlin')).to.equal('Sun 2027-03-21 03:00 – 05:00');
    expect(spanInZone('2027-03-21T22:00:00.000Z', '2027-03-22T01:00:00.000Z', 'Europe/Berlin')).to.equal(
      'Sun 2027-03-21 23:00 – Mon 2027-03-22 02:00',
    );
  });
});
