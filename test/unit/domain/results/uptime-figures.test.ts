import { expect } from 'chai';
import { hundredthsOfPercent } from '../../../../src/domain/results/percent-shares';
import { emptyCoverage, uptimeFigures, type CoverageTotals } from '../../../../src/domain/results/uptime-figures';

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const coverage = (
  seconds: Partial<Pick<CoverageTotals, 'upSeconds' | 'degradedSeconds' | 'downSeconds'>>,
  locations = ['eu'],
): CoverageTotals => ({ ...emptyCoverage(), ...seconds, locations });
const hundredths = (percent: number) => Math.round(percent * 100);

describe('uptime figures', () => {
  it('shares one denominator, the window: up + down + unknown add up to 100', () => {
    // The figures of issue 23 (72.17 + 27.83 + 14.47 = 114.47): up and down were shares of known time only.
    const figures = uptimeFigures(coverage({ upSeconds: 61_727, downSeconds: 23_803 }), 100_000, 1);
    expect(figures).to.include({
      uptimePercent: 61.73,
      downtimePercent: 23.8,
      unknownPercent: 14.47,
      degradedPercent: 0,
      uptimeOfKnownPercent: 72.17,
      unknownSeconds: 14_470,
    });
  });

  it('never counts unknown time as up', () => {
    const figures = uptimeFigures(coverage({ upSeconds: 1800, downSeconds: 600 }), 3600, 1);
    expect(figures).to.include({
      uptimePercent: 50,
      downtimePercent: 16.67,
      unknownPercent: 33.33,
      uptimeOfKnownPercent: 75,
      unknownSeconds: 1200,
    });
  });

  it('counts degraded time as part of uptime and expects every configured location', () => {
    const figures = uptimeFigures(coverage({ upSeconds: 3000, degradedSeconds: 600 }), 3600, 2);
    expect(figures).to.include({
      uptimePercent: 50,
      degradedPercent: 8.33,
      downtimePercent: 0,
      unknownPercent: 50,
      uptimeOfKnownPercent: 100,
    });
  });

  it('gives the unit rounding leaves over to the largest remainder, so thirds still add up to 100', () => {
    const figures = uptimeFigures(coverage({ upSeconds: 1200, downSeconds: 1200 }), 3600, 1);
    expect(figures).to.include({ uptimePercent: 33.34, downtimePercent: 33.33, unknownPercent: 33.33 });
    expect(hundredthsOfPercent([1, 1, 1, 1, 1, 1, 1])).to.deep.equal([1429, 1429, 1429, 1429, 1428, 1428, 1428]);
  });

  it('reports a window without results as all unknown, and nothing for an empty window', () => {
    expect(uptimeFigures(emptyCoverage(), 3600, 1)).to.include({
      uptimePercent: 0,
      downtimePercent: 0,
      degradedPercent: 0,
      unknownPercent: 100,
      uptimeOfKnownPercent: null,
    });
    expect(uptimeFigures(emptyCoverage(), 0, 1)).to.include({
      uptimePercent: null,
      downtimePercent: null,
      degradedPercent: null,
      unknownPercent: null,
      uptimeOfKnownPercent: null,
    });
  });

  it('adds up to 100.00 with every share in [0, 100] and within a hundredth of its exact value, over generated histories', () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= 3000; seed += 1) {
      const random = seeded(seed);
      // Whole, fractional, tiny and absent amounts of each state, windows of seconds to months, and
      // coverage beyond the window (more locations reported than configured).
      const amount = () =>
        [0, random() * 10, random() * 3600, Math.floor(random() * 2_592_000), 1e-6 * random()][Math.floor(random() * 5)]!;
      const totals = coverage(
        { upSeconds: amount(), degradedSeconds: amount(), downSeconds: amount() },
        random() < 0.1 ? ['eu', 'us', 'ap'] : ['eu'],
      );
      const period = [0, 1, 60, 3600, 86_400, 2_592_000, random() * 100_000][Math.floor(random() * 7)]!;
      const configured = 1 + Math.floor(random() * 3);
      const f = uptimeFigures(totals, period, configured);
      const fail = (what: string) => failures.push(`seed ${seed}: ${what} ${JSON.stringify({ totals, period, configured, f })}`);

      const known = totals.upSeconds + totals.degradedSeconds + totals.downSeconds;
      const window = Math.max(period * Math.max(configured, totals.locations.length), known);
      const shares = [f.uptimePercent, f.downtimePercent, f.degradedPercent, f.unknownPercent];
      if (window === 0) {
        if (shares.some((share) => share !== null)) fail('shares of an empty window');
        continue;
      }
      if (shares.some((share) => typeof share !== 'number' || share < 0 || share > 100 || hundredths(share) / 100 !== share)) {
        fail('a share outside [0, 100] or with more than two decimals');
      }
      const [up, down, degraded, unknown] = shares as number[];
      if (hundredths(up!) + hundredths(down!) + hundredths(unknown!) !== 10_000) fail('sum is not 100.00');
      if (degraded! > up!) fail('degraded above uptime');
      const near = (share: number, part: number, within = 0.01) => Math.abs(share - (part / window) * 100) <= within + 1e-9;
      // Uptime is the sum of two apportioned parts (up, degraded): each is within a hundredth.
      if (
        !near(up!, totals.upSeconds + totals.degradedSeconds, 0.02) ||
        !near(down!, totals.downSeconds) ||
        !near(degraded!, totals.degradedSeconds) ||
        !near(unknown!, window - known)
      )
        fail('a share off its exact value');
      const ofKnown = known === 0 ? null : ((totals.upSeconds + totals.degradedSeconds) / known) * 100;
      if (ofKnown === null ? f.uptimeOfKnownPercent !== null : Math.abs(f.uptimeOfKnownPercent! - ofKnown) > 0.01 + 1e-9) {
        fail('uptimeOfKnownPercent');
      }
    }
    expect(failures.slice(0, 5)).to.deep.equal([]);
  });
});

describe('largest-remainder shares', () => {
  it('add up to 10,000 hundredths for any parts, each rounded down or up from its exact value', () => {
    const random = seeded(23);
    for (let run = 0; run < 2000; run += 1) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
        random() < 0.2 ? 0 : random() * 10 ** Math.floor(random() * 9),
      );
      const shares = hundredthsOfPercent(parts);
      const whole = parts.reduce((sum, part) => sum + part, 0);
      if (whole === 0) {
        expect(shares).to.equal(null);
        continue;
      }
      expect(
        shares!.reduce((sum, share) => sum + share, 0),
        JSON.stringify(parts),
      ).to.equal(10_000);
      shares!.forEach((share, i) => {
        expect(Number.isInteger(share)).to.equal(true);
        expect(Math.abs(share - (parts[i]! / whole) * 10_000), JSON.stringify(parts)).to.be.below(1 + 1e-6);
      });
    }
  });

  it('ignores negative and non-finite parts', () => {
    expect(hundredthsOfPercent([-5, 1, Number.NaN, 3])).to.deep.equal([0, 2500, 0, 7500]);
    expect(hundredthsOfPercent([0, 0])).to.equal(null);
    expect(hundredthsOfPercent([])).to.equal(null);
  });
});
