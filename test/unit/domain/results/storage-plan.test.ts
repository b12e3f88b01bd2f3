import { expect } from 'chai';
import { compactRetentionLimit, daysToCompact, rollupDaysToMerge } from '../../../../src/domain/results/storage-plan';
import { planSegments } from '../../../../src/domain/results/stats-segments';

const at = (iso: string) => new Date(iso);
const iso = (dates: Date[]) => dates.map((d) => d.toISOString().slice(0, 10));

describe('result storage tiers', () => {
  const settings = { rawHours: 6, resultsRetentionDays: 30 };
  const partitions = ['2026-10-20', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'].map(
    (d) => new Date(`${d}T00:00:00Z`),
  );

  it('packs a closed day once it ended the raw window ago and is rolled up, never today nor an expired day', () => {
    const now = at('2026-11-22T05:40:00Z');
    const rolledTo = at('2026-11-22T05:00:00Z');
    // 2026-11-21 ended 5 h 40 min ago: still raw for 20 more minutes; 2026-10-20 is past retention (dropped instead).
    expect(iso(daysToCompact(partitions, now, settings, rolledTo))).to.deep.equal(['2026-11-18', '2026-11-19', '2026-11-20']);
    expect(iso(daysToCompact(partitions, at('2026-11-22T06:10:00Z'), settings, at('2026-11-22T05:00:00Z')))).to.deep.equal([
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
    ]);
  });

  it('packs nothing that is not rolled up yet', () => {
    const now = at('2026-11-22T12:00:00Z');
    expect(daysToCompact(partitions, now, settings, null)).to.deep.equal([]);
    expect(iso(daysToCompact(partitions, now, settings, at('2026-11-19T23:00:00Z')))).to.deep.equal(['2026-11-18']);
    expect(iso(daysToCompact(partitions, now, { rawHours: 72, resultsRetentionDays: 30 }, at('2026-11-22T11:00:00Z')))).to.deep.equal([
      '2026-11-18',
    ]);
  });

  it('merges hourly rollups into days from where the daily rows end, up to the configured age, whole rolled-up days only', () => {
    const now = at('2026-11-22T10:00:00Z');
    expect(rollupDaysToMerge(now, 8, null)).to.deep.equal([]);
    const first = { from: at('2026-11-10T07:00:00Z'), to: at('2026-11-22T09:00:00Z'), dailyTo: null };
    expect(iso(rollupDaysToMerge(now, 8, first))).to.deep.equal(['2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13']);
    const later = { ...first, dailyTo: at('2026-11-14T00:00:00Z') };
    expect(rollupDaysToMerge(now, 8, later)).to.deep.equal([]);
    expect(iso(rollupDaysToMerge(at('2026-11-23T00:30:00Z'), 8, later))).to.deep.equal(['2026-11-14']);
    const behind = { from: at('2026-11-01T00:00:00Z'), to: at('2026-11-03T05:00:00Z'), dailyTo: null };
    expect(iso(rollupDaysToMerge(now, 8, behind))).to.deep.equal(['2026-11-01', '2026-11-02']);
  });

  it('deletes compact hours older than retention, whole hours', () => {
    expect(compactRetentionLimit(at('2026-11-22T10:40:00Z'), 30).toISOString()).to.equal('2026-10-23T10:00:00.000Z');
  });
});

describe('planSegments with daily rollups', () => {
  const rolled = { from: at('2026-10-01T07:00:00Z'), to: at('2026-11-22T10:00:00Z'), dailyTo: at('2026-11-14T00:00:00Z') };
  const plan = (from: string, to: string) =>
    planSegments({ from: at(from), to: at(to) }, rolled).map((s) => [s.source, s.from.toISOString(), s.to.toISOString()]);

  it('answers whole days from daily rollups, the partial day before them from results, then whole hours and the tail', () => {
    expect(plan('2026-10-23T10:30:00Z', '2026-11-22T10:30:00Z')).to.deep.equal([
      ['raw', '2026-10-23T10:30:00.000Z', '2026-10-24T00:00:00.000Z'],
      ['rollup', '2026-10-24T00:00:00.000Z', '2026-11-22T10:00:00.000Z'],
      ['raw', '2026-11-22T10:00:00.000Z', '2026-11-22T10:30:00.000Z'],
    ]);
  });

  it('ends on a whole day when the range ends inside the daily stretch', () => {
    expect(plan('2026-11-01T00:00:00Z', '2026-11-05T13:20:00Z')).to.deep.equal([
      ['rollup', '2026-11-01T00:00:00.000Z', '2026-11-05T00:00:00.000Z'],
      ['raw', '2026-11-05T00:00:00.000Z', '2026-11-05T13:20:00.000Z'],
    ]);
    expect(plan('2026-11-05T02:00:00Z', '2026-11-05T13:00:00Z')).to.deep.equal([
      ['raw', '2026-11-05T02:00:00.000Z', '2026-11-05T13:00:00.000Z'],
    ]);
  });

  it('starts at the first day the rollups cover, and on the hour once past the daily stretch', () => {
    expect(plan('2026-09-20T00:00:00Z', '2026-10-03T00:00:00Z')).to.deep.equal([
      ['raw', '2026-09-20T00:00:00.000Z', '2026-10-01T00:00:00.000Z'],
      ['rollup', '2026-10-01T00:00:00.000Z', '2026-10-03T00:00:00.000Z'],
    ]);
    expect(plan('2026-11-15T03:10:00Z', '2026-11-16T00:00:00Z')).to.deep.equal([
      ['raw', '2026-11-15T03:10:00.000Z', '2026-11-15T04:00:00.000Z'],
      ['rollup', '2026-11-15T04:00:00.000Z', '2026-11-16T00:00:00.000Z'],
    ]);
  });
});
