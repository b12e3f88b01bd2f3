import { expect } from 'chai';
import { parseDateRange, parseOptionalBounds } from '../../../../src/domain/results/date-range';
import { bucketOf, mergeHistograms, percentile } from '../../../../src/domain/results/response-histogram';
import { planSegments } from '../../../../src/domain/results/stats-segments';
import { isDetailSample, keepsDetail } from '../../../../src/domain/results/detail-sampling';
import { coverageSeconds } from '../../../../src/domain/results/coverage';
import { codeOf } from '../../../support/expect-app-error';

const now = new Date('2026-11-22T10:30:00Z');
const HOUR = 3_600_000;

describe('date ranges of history queries', () => {
  it('defaults to the span before now', () => {
    expect(parseDateRange({}, { now, spanMs: HOUR })).to.deep.equal({ from: new Date(now.getTime() - HOUR), to: now });
    expect(parseDateRange({ to: '2026-11-20' }, { now, spanMs: HOUR }).from.toISOString()).to.equal('2026-11-19T23:00:00.000Z');
  });

  it('answers invalidDateRange for values that are not ISO 8601 dates, and for from after to', () => {
    for (const from of ['', 'yesterday', '1700000000', '2026-02-30T25:00:00Z', '22.11.2026']) {
      expect(
        codeOf(() => parseDateRange({ from }, { now, spanMs: HOUR })),
        from,
      ).to.equal('invalidDateRange');
    }
    expect(codeOf(() => parseDateRange({ from: '2026-11-22T10:00:01Z', to: '2026-11-22T10:00:00Z' }, { now, spanMs: HOUR }))).to.equal(
      'invalidDateRange',
    );
    expect(codeOf(() => parseOptionalBounds({ from: '2026-11-23', to: '2026-11-22' }))).to.equal('invalidDateRange');
    expect(parseOptionalBounds({ to: '2026-11-22T10:00:00+02:00' }).to!.toISOString()).to.equal('2026-11-22T08:00:00.000Z');
  });
});

describe('response-time histogram', () => {
  it('buckets as width_bucket does and interpolates percentiles inside a bucket', () => {
    expect([0, 4, 5, 99, 100, 60000, 999999].map(bucketOf)).to.deep.equal([1, 1, 2, 13, 14, 55, 55]);
    const histogram = mergeHistograms({ 14: 50 }, { 14: 50, 20: 100 });
    expect(percentile(histogram, 50)).to.equal(120);
    expect(percentile(histogram, 75)).to.equal(275);
    expect(percentile({}, 50)).to.equal(null);
  });
});

describe('stats segments', () => {
  const range = { from: new Date('2026-11-20T10:20:00Z'), to: new Date('2026-11-22T10:30:00Z') };
  it('reads whole rolled-up hours from rollups and the rest raw', () => {
    const rolled = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-22T09:00:00Z') };
    expect(planSegments(range, rolled).map((s) => [s.source, s.from.toISOString(), s.to.toISOString()])).to.deep.equal([
      ['raw', '2026-11-20T10:20:00.000Z', '2026-11-20T11:00:00.000Z'],
      ['rollup', '2026-11-20T11:00:00.000Z', '2026-11-22T09:00:00.000Z'],
      ['raw', '2026-11-22T09:00:00.000Z', '2026-11-22T10:30:00.000Z'],
    ]);
  });

  it('reads everything raw without rollups or inside a single hour', () => {
    expect(planSegments(range, null)).to.deep.equal([{ source: 'raw', ...range }]);
    const short = { from: new Date('2026-11-20T10:20:00Z'), to: new Date('2026-11-20T10:50:00Z') };
    expect(planSegments(short, { from: new Date(0), to: now })).to.deep.equal([{ source: 'raw', ...short }]);
  });
});

describe('result detail sampling and coverage', () => {
  const at = new Date('2026-11-22T10:00:00Z');
  const minute = 60_000;
  const result = (monitorId: number, checkedAt: Date, intervalMs = minute) => ({ monitorId, checkedAt, intervalMs });

  it('keeps detail for failures and the first up after anything else', () => {
    expect(keepsDetail('down', 'down', result(7, at), 60)).to.equal(true);
    expect(keepsDetail('degraded', 'up', result(7, at), 60)).to.equal(true);
    expect(keepsDetail('up', undefined, result(7, at), 60)).to.equal(true);
    expect(keepsDetail('up', 'degraded', result(7, at), 60)).to.equal(true);
  });

  it('keeps one up result per sample period from checks on their interval, a little late or not', () => {
    for (const monitorId of [1, 7, 4242, 2 ** 31 - 1]) {
      const samples: number[] = [];
      for (let i = 0; i < 180; i++) {
        const checkedAt = new Date(at.getTime() + i * minute + (i % 7) * 40);
        if (keepsDetail('up', 'up', result(monitorId, checkedAt), 60)) samples.push(i);
      }
      expect(samples, `monitor ${monitorId}`).to.have.length(3);
      expect(samples[1]! - samples[0]!).to.equal(60);
      expect(samples[2]! - samples[1]!).to.equal(60);
    }
  });

  it("spreads the monitors' samples over the period", () => {
    const sampleMinutes = new Set<number>();
    for (let monitorId = 1; monitorId <= 200; monitorId++) {
      for (let i = 0; i < 60; i++) {
        if (isDetailSample(result(monitorId, new Date(at.getTime() + i * minute)), 60)) sampleMinutes.add(i);
      }
    }
    expect(sampleMinutes.size).to.be.greaterThan(50);
  });

  it('keeps every result with a zero period or an interval as long as the period', () => {
    expect(isDetailSample(result(7, at), 0)).to.equal(true);
    expect(isDetailSample(result(7, at, 60 * minute), 60)).to.equal(true);
    expect(isDetailSample(result(7, at, 24 * 60 * minute), 60)).to.equal(true);
  });

  it('lets a result stand for its interval plus a grace of at least a minute', () => {
    expect(coverageSeconds(60)).to.equal(120);
    expect(coverageSeconds(600)).to.equal(900);
  });
});
