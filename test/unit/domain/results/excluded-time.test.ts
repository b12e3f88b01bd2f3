import { expect } from 'chai';
import { withoutSpans } from '../../../../src/domain/results/excluded-time';

const r = (from: string, to: string) => ({ from: new Date(`2026-06-01T${from}:00Z`), to: new Date(`2026-06-01T${to}:00Z`) });
const show = (ranges: { from: Date; to: Date }[]) =>
  ranges.map((x) => `${x.from.toISOString().slice(11, 16)}-${x.to.toISOString().slice(11, 16)}`);

describe('time left out of a range', () => {
  it('keeps the pieces around overlapping spans and ignores spans outside the range', () => {
    expect(show(withoutSpans(r('08:00', '12:00'), [r('09:30', '10:00'), r('09:00', '09:45'), r('13:00', '14:00')]))).to.deep.equal([
      '08:00-09:00',
      '10:00-12:00',
    ]);
  });

  it('answers nothing when a span covers the whole range, and the range when there are no spans', () => {
    expect(withoutSpans(r('08:00', '09:00'), [r('07:00', '10:00')])).to.deep.equal([]);
    expect(show(withoutSpans(r('08:00', '09:00'), []))).to.deep.equal(['08:00-09:00']);
  });
});
