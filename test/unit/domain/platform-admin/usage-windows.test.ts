import { expect } from 'chai';
import { resultCountingSpans, usageWindows } from '../../../../src/domain/platform-admin/usage-windows';

const at = (iso: string) => new Date(iso);

describe('usage windows of the platform staff views', () => {
  it('ends every window now and names the calendar month (UTC) of the SMS counters', () => {
    const windows = usageWindows(at('2026-03-01T00:30:00Z'));
    expect(windows.dayAgo.toISOString()).to.equal('2026-02-28T00:30:00.000Z');
    expect(windows.weekAgo.toISOString()).to.equal('2026-02-22T00:30:00.000Z');
    expect(windows.thirtyDaysAgo.toISOString()).to.equal('2026-01-30T00:30:00.000Z');
    expect(windows.month).to.equal('2026-03-01');
  });

  it('counts whole rolled-up hours from the rollups and the partial first hour raw', () => {
    const spans = resultCountingSpans(at('2026-03-01T10:20:00Z'), at('2026-03-02T09:00:00Z'));
    expect(spans.rollupFrom.toISOString()).to.equal('2026-03-01T11:00:00.000Z');
    expect(spans.rollupTo.toISOString()).to.equal('2026-03-02T09:00:00.000Z');
  });

  it('takes a window that starts on the hour from the rollups from its first hour', () => {
    const spans = resultCountingSpans(at('2026-03-01T10:00:00Z'), at('2026-03-01T12:00:00Z'));
    expect(spans.rollupFrom.toISOString()).to.equal('2026-03-01T10:00:00.000Z');
    expect(spans.rollupTo.toISOString()).to.equal('2026-03-01T12:00:00.000Z');
  });

  it('counts everything raw before the first rollup, or when the rollups end before the window starts', () => {
    for (const rolledTo of [null, at('2026-03-01T08:00:00Z')]) {
      const spans = resultCountingSpans(at('2026-03-01T10:20:00Z'), rolledTo);
      expect(spans.rollupTo.getTime(), String(rolledTo)).to.equal(spans.rollupFrom.getTime());
    }
  });
});
