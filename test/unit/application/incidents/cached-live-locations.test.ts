import { expect } from 'chai';
import { CachedLiveLocations } from '../../../../src/application/incidents/cached-live-locations';
import { FakeLiveLocations } from '../../../support/fakes/incidents-fakes';

const t0 = new Date('2026-11-22T10:00:00Z');
const after = (ms: number) => new Date(t0.getTime() + ms);

describe('CachedLiveLocations', () => {
  it('reads once per period, shares one read between callers, and sees a change after the period', async () => {
    const source = new FakeLiveLocations(['eu', 'us']);
    const cached = new CachedLiveLocations(source, 1000);
    const [first, second] = await Promise.all([cached.live(t0), cached.live(after(10))]);
    expect(first).to.deep.equal(['eu', 'us']);
    expect(second).to.deep.equal(['eu', 'us']);
    source.silence('us');
    expect(await cached.live(after(999))).to.deep.equal(['eu', 'us']);
    expect(source.reads).to.equal(1);
    expect(await cached.live(after(1000))).to.deep.equal(['eu']);
    expect(source.reads).to.equal(2);
  });

  it('reads again when time went back, and does not keep a failed read', async () => {
    let fail = true;
    const source = new FakeLiveLocations(['eu']);
    const flaky = {
      live: async (): Promise<readonly string[]> => {
        if (fail) throw new Error('connection lost');
        return source.live();
      },
    };
    const cached = new CachedLiveLocations(flaky, 1000);
    let error: unknown;
    await cached.live(t0).catch((caught: unknown) => (error = caught));
    expect(String(error)).to.contain('connection lost');
    fail = false;
    expect(await cached.live(after(1))).to.deep.equal(['eu']);
    expect(await cached.live(after(-5))).to.deep.equal(['eu']);
    expect(source.reads).to.equal(2);
  });
});
