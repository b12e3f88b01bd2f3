import { expect } from 'chai';
import { NO_TIMINGS, phaseTimings, roundMs, type CheckTimings } from '../../../../src/domain/checks/check-result';

/** A small deterministic generator (mulberry32), so a failing case is the same on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PHASES = ['dnsMs', 'connectMs', 'tlsMs', 'firstByteMs', 'totalMs'] as const;
const present = (t: CheckTimings) => PHASES.map((phase) => t[phase]).filter((ms): ms is number => ms !== null);
const isTenth = (ms: number) => Math.abs(ms * 10 - Math.round(ms * 10)) < 1e-9;

describe('check timings: phases on one clock, cumulative from the start, ordered, to 0.1 ms', () => {
  it('counts every phase from the check start (cumulative, like curl), rounded to 0.1 ms', () => {
    const start = 1_000.123_456;
    expect(phaseTimings(start, start + 1.04, start + 3.26, start + 10.5, start + 52.349, start + 60.06)).to.deep.equal({
      dnsMs: 1,
      connectMs: 3.3,
      tlsMs: 10.5,
      firstByteMs: 52.3,
      totalMs: 60.1,
    });
  });

  it('keeps phases that did not happen null, and orders the others among themselves', () => {
    expect(phaseTimings(0, null, 2, null, 5, 9)).to.deep.equal({ dnsMs: null, connectMs: 2, tlsMs: null, firstByteMs: 5, totalMs: 9 });
    expect(phaseTimings(0, null, null, null, null, 4.44)).to.deep.equal(NO_TIMINGS(4.44));
    expect(NO_TIMINGS(4.44).totalMs).to.equal(4.4);
  });

  it('never lets a phase end before the one it follows: the defect where firstByteMs < connectMs', () => {
    // durations per phase (connect 40 ms, then a 5 ms server wait) read as instants would say
    // firstByte 5 < connect 40; as instants on one clock the first byte comes after the connection
    const t = phaseTimings(100, 110, 140, null, 120, 150);
    expect(t).to.deep.equal({ dnsMs: 10, connectMs: 40, tlsMs: null, firstByteMs: 40, totalMs: 50 });
    expect(phaseTimings(100, 90, 95, 99, 101, 98)).to.deep.equal({ dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 0, totalMs: 0 });
  });

  it('holds dns <= connect <= tls <= firstByte <= total, each a multiple of 0.1 ms, for any instants (property, 20 000 cases)', () => {
    const next = random(23);
    const failures: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const start = next() * 1e7;
      const instant = () => (next() < 0.2 ? null : start + (next() - 0.1) * 5_000);
      const marks = [instant(), instant(), instant(), instant()] as const;
      const end = start + next() * 6_000;
      const t = phaseTimings(start, marks[0], marks[1], marks[2], marks[3], end);
      const values = present(t);
      const ordered = values.every((ms, k) => (k === 0 ? ms >= 0 : ms >= values[k - 1]!));
      const sameNulls = marks.every((mark, k) => (t[PHASES[k]!] === null) === (mark === null));
      if (!ordered || !values.every(isTenth) || !sameNulls) failures.push(JSON.stringify({ start, marks, end, t }));
    }
    expect(failures).to.deep.equal([]);
  });

  it('reports ordered instants exactly, only rounded (property)', () => {
    const next = random(7);
    const failures: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const start = next() * 1e6;
      const steps = [0, 0, 0, 0, 0].map(() => next() * 300);
      const at = steps.map((_, k) => start + steps.slice(0, k + 1).reduce((a, b) => a + b, 0));
      const t = phaseTimings(start, at[0]!, at[1]!, at[2]!, at[3]!, at[4]!);
      const expected = at.map((instant) => roundMs(instant - start));
      if (present(t).some((ms, k) => ms !== expected[k])) failures.push(JSON.stringify({ start, at, t }));
    }
    expect(failures).to.deep.equal([]);
  });
});
