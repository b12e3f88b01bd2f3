import { expect } from 'chai';
import { latestSlot, nextSlot, reportPeriod, reportSchedule, type ReportSchedule } from '../../../../src/domain/reports/report-schedule';
import { instantOf } from '../../../../src/domain/shared/zoned-time';
import { codeOf } from '../../../support/expect-app-error';

const at = (iso: string) => new Date(iso);
const weekly = (weekday: number, timeOfDay = '08:00', timezone = 'UTC'): ReportSchedule =>
  reportSchedule({ frequency: 'weekly', weekday, timeOfDay, timezone });
const monthly = (dayOfMonth: number, timeOfDay = '08:00', timezone = 'UTC'): ReportSchedule =>
  reportSchedule({ frequency: 'monthly', dayOfMonth, timeOfDay, timezone });

describe('report schedule', () => {
  describe('its rules', () => {
    it('refuses a weekly schedule without a weekday, or with one outside 1-7 (invalidReportSchedule)', () => {
      expect(codeOf(() => reportSchedule({ frequency: 'weekly', timeOfDay: '08:00', timezone: 'UTC' }))).to.equal('invalidReportSchedule');
      expect(codeOf(() => weekly(0))).to.equal('invalidReportSchedule');
      expect(codeOf(() => weekly(8))).to.equal('invalidReportSchedule');
      expect(codeOf(() => reportSchedule({ frequency: 'weekly', weekday: '1', timeOfDay: '08:00', timezone: 'UTC' }))).to.equal(
        'invalidReportSchedule',
      );
    });

    it('refuses a monthly schedule without a dayOfMonth, or outside 1-28 (invalidReportSchedule)', () => {
      expect(codeOf(() => reportSchedule({ frequency: 'monthly', timeOfDay: '08:00', timezone: 'UTC' }))).to.equal('invalidReportSchedule');
      expect(codeOf(() => monthly(0))).to.equal('invalidReportSchedule');
      expect(codeOf(() => monthly(29))).to.equal('invalidReportSchedule');
      expect(monthly(28).dayOfMonth).to.equal(28);
      expect(monthly(1).dayOfMonth).to.equal(1);
    });

    it("refuses the other frequency's field", () => {
      expect(
        codeOf(() => reportSchedule({ frequency: 'weekly', weekday: 1, dayOfMonth: 3, timeOfDay: '08:00', timezone: 'UTC' })),
      ).to.equal('invalidReportSchedule');
      expect(
        codeOf(() => reportSchedule({ frequency: 'monthly', weekday: 1, dayOfMonth: 3, timeOfDay: '08:00', timezone: 'UTC' })),
      ).to.equal('invalidReportSchedule');
    });
  });

  describe('slots', () => {
    it('finds the latest weekly slot at or before now, and the next one', () => {
      const mondays = weekly(1);
      // 2026-06-01 is a Monday.
      expect(latestSlot(mondays, at('2026-06-01T08:00:00Z')).toISOString()).to.equal('2026-06-01T08:00:00.000Z');
      expect(latestSlot(mondays, at('2026-06-01T07:59:59Z')).toISOString()).to.equal('2026-05-25T08:00:00.000Z');
      expect(latestSlot(mondays, at('2026-06-07T23:00:00Z')).toISOString()).to.equal('2026-06-01T08:00:00.000Z');
      expect(nextSlot(mondays, at('2026-06-01T08:00:00Z')).toISOString()).to.equal('2026-06-08T08:00:00.000Z');
    });

    it('finds monthly slots across month and year ends', () => {
      const on28th = monthly(28, '23:30');
      expect(latestSlot(on28th, at('2026-03-01T00:00:00Z')).toISOString()).to.equal('2026-02-28T23:30:00.000Z');
      expect(latestSlot(on28th, at('2027-01-10T00:00:00Z')).toISOString()).to.equal('2026-12-28T23:30:00.000Z');
      expect(nextSlot(on28th, at('2026-12-29T00:00:00Z')).toISOString()).to.equal('2027-01-28T23:30:00.000Z');
    });

    it('keeps the wall-clock time across daylight-saving changes (Europe/Berlin)', () => {
      const berlin = weekly(7, '08:00', 'Europe/Berlin');
      // Clocks went forward on Sunday 2026-03-29: 08:00 is 07:00Z before and 06:00Z after.
      expect(latestSlot(berlin, at('2026-03-28T12:00:00Z')).toISOString()).to.equal('2026-03-22T07:00:00.000Z');
      expect(latestSlot(berlin, at('2026-03-29T12:00:00Z')).toISOString()).to.equal('2026-03-29T06:00:00.000Z');
      // They went back on Sunday 2026-10-25.
      expect(latestSlot(berlin, at('2026-10-25T12:00:00Z')).toISOString()).to.equal('2026-10-25T07:00:00.000Z');
    });

    it('moves a slot in the skipped hour forward by the gap and takes the earlier of a repeated hour', () => {
      expect(instantOf('Europe/Berlin', { year: 2026, month: 3, day: 29, hour: 2, minute: 30 }).toISOString()).to.equal(
        '2026-03-29T01:30:00.000Z',
      );
      expect(instantOf('Europe/Berlin', { year: 2026, month: 10, day: 25, hour: 2, minute: 30 }).toISOString()).to.equal(
        '2026-10-25T00:30:00.000Z',
      );
      const sundays = weekly(7, '02:30', 'Europe/Berlin');
      expect(latestSlot(sundays, at('2026-03-29T12:00:00Z')).toISOString()).to.equal('2026-03-29T01:30:00.000Z');
      expect(latestSlot(sundays, at('2026-10-25T12:00:00Z')).toISOString()).to.equal('2026-10-25T00:30:00.000Z');
    });
  });

  describe('periods', () => {
    it('covers the calendar month before a monthly slot, in local days', () => {
      const period = reportPeriod(monthly(1, '06:00', 'Europe/Berlin'), at('2026-04-01T04:00:00Z'));
      expect(period.from.toISOString()).to.equal('2026-02-28T23:00:00.000Z');
      expect(period.to.toISOString()).to.equal('2026-03-31T22:00:00.000Z');
      const january = reportPeriod(monthly(3), at('2027-01-03T08:00:00Z'));
      expect([january.from.toISOString(), january.to.toISOString()]).to.deep.equal([
        '2026-12-01T00:00:00.000Z',
        '2027-01-01T00:00:00.000Z',
      ]);
    });

    it('covers the seven local days before a weekly slot, 167 hours across the spring change', () => {
      const period = reportPeriod(weekly(1, '08:00', 'Europe/Berlin'), at('2026-03-30T06:00:00Z'));
      expect(period.from.toISOString()).to.equal('2026-03-22T23:00:00.000Z');
      expect(period.to.toISOString()).to.equal('2026-03-29T22:00:00.000Z');
      expect((period.to.getTime() - period.from.getTime()) / 3_600_000).to.equal(167);
    });
  });
});
