import { expect } from 'chai';
import { LatenessHistogram, latenessBetween } from '../../../../src/domain/scheduling/lateness-histogram';

describe('start lateness histogram', () => {
  it('answers percentiles as the upper bound of their bucket: 1 ms, then 10 ms, 100 ms and 1 s wide', () => {
    const histogram = new LatenessHistogram();
    for (const ms of [0, 7, 7, 42, 99, 100, 250, 999, 1_000, 4_321, 12_345]) histogram.record(ms);
    const all = latenessBetween([], histogram.snapshot());
    expect(all.count).to.equal(11);
    expect([0.09, 0.27, 0.36, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map((p) => all.percentile(p))).to.deep.equal([
      0, 7, 42, 99, 109, 259, 999, 1_099, 4_399, 12_999,
    ]);
  });

  it('lets several readers compare snapshots without disturbing one another', () => {
    const histogram = new LatenessHistogram();
    histogram.record(10);
    const first = histogram.snapshot();
    histogram.record(2_000);
    histogram.record(20);
    const second = histogram.snapshot();
    expect(latenessBetween(first, second).count).to.equal(2);
    expect(latenessBetween(first, second).max()).to.equal(2_099);
    expect(latenessBetween([], second).count, 'the other reader still sees everything').to.equal(3);
    expect(latenessBetween(second, histogram.snapshot()).percentile(0.99), 'nothing new').to.equal(0);
  });

  it('counts what comes later than ten minutes in the last bucket, and never goes negative', () => {
    const histogram = new LatenessHistogram();
    histogram.record(3_600_000);
    histogram.record(-5);
    const all = latenessBetween([], histogram.snapshot());
    expect([all.percentile(0.5), all.max()]).to.deep.equal([0, 599_999]);
  });
});
