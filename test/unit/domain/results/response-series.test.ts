import { expect } from 'chai';
import { bucketOf } from '../../../../src/domain/results/response-histogram';
import { seriesOf, seriesStart } from '../../../../src/domain/results/response-series';

const histogramOf = (...ms: number[]) => {
  const histogram: Record<number, number> = {};
  for (const value of ms) histogram[bucketOf(value)] = (histogram[bucketOf(value)] ?? 0) + 1;
  return histogram;
};

describe('response-time series', () => {
  const now = new Date('2026-11-25T10:20:30Z');

  it('ends with the bucket that holds now, aligned to the bucket width', () => {
    expect(seriesStart('1h', now).toISOString()).to.equal('2026-11-25T09:21:00.000Z');
    expect(seriesStart('24h', now).toISOString()).to.equal('2026-11-24T10:30:00.000Z');
    expect(seriesStart('90d', now).toISOString()).to.equal('2026-08-28T00:00:00.000Z');
  });

  it('merges the parts of a bucket (rollups and raw), one line per location in name order, gaps kept', () => {
    const start = new Date('2026-11-25T10:00:00Z');
    const [eu, us] = seriesOf('24h', now, [
      { location: 'us', bucketStart: start, histogram: histogramOf(50), checks: 1, degraded: 0, down: 0 },
      { location: 'eu', bucketStart: start, histogram: histogramOf(100, 110), checks: 3, degraded: 0, down: 1 },
      { location: 'eu', bucketStart: start, histogram: histogramOf(1000), checks: 1, degraded: 1, down: 0 },
      { location: 'eu', bucketStart: new Date('2026-11-20T00:00:00Z'), histogram: histogramOf(1), checks: 1, degraded: 0, down: 0 },
    ]);
    expect(eu!.location).to.equal('eu');
    expect(us!.location).to.equal('us');
    expect(eu!.points).to.have.length(96);
    const point = eu!.points.find((p) => p.start.getTime() === start.getTime())!;
    expect(point).to.include({ checks: 4, degraded: 1, down: 1 });
    expect(point.median).to.be.within(100, 120);
    expect(point.p95).to.be.within(1000, 1200);
    expect(eu!.points[0]).to.deep.include({ checks: 0, median: null, p95: null });
  });
});
