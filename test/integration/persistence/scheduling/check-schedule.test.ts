import { expect } from 'chai';
import { PgCheckSchedule } from '../../../../src/infrastructure/scheduling/pg-check-schedule';
import { slotAfterCompletion } from '../../../../src/domain/scheduling/check-slot';
import type { ClaimedCheck } from '../../../../src/application/scheduling/ports';
import { testServer } from '../../../support/test-server';

const MIN = 60_000;
let nextMonitor = 9_000_000 + Math.floor(Math.random() * 1_000_000);

async function schedule() {
  const { database } = await testServer();
  return new PgCheckSchedule(database.sql);
}

/** Locations unique to a test, so concurrent tests never claim each other's rows. */
const locationsFor = (label: string) => [`${label}-${nextMonitor}-a`, `${label}-${nextMonitor}-b`];

describe('check schedule (PostgreSQL)', () => {
  it('plans one row per location on the grid and claims nothing before it is due', async () => {
    const s = await schedule();
    const monitorId = ++nextMonitor;
    const locations = locationsFor('plan');
    const now = new Date();
    await s.plan(monitorId, locations, MIN, now);
    expect(await s.claimDue({ locations, now, limit: 10, leaseMs: 30_000, workerId: 'w1' })).to.deep.equal([]);
    const later = new Date(now.getTime() + MIN);
    const claimed = await s.claimDue({ locations, now: later, limit: 10, leaseMs: 30_000, workerId: 'w1' });
    expect(claimed.map((c) => c.location).sort()).to.deep.equal([...locations].sort());
  });

  it('never hands one slot to two workers claiming at the same time', async () => {
    const s = await schedule();
    const locations = locationsFor('race');
    const now = new Date();
    for (let i = 0; i < 200; i++) await s.plan(++nextMonitor, locations, MIN, new Date(now.getTime() - MIN));
    const claims = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((workerId) =>
      s.claimDue({ locations, now, limit: 150, leaseMs: 30_000, workerId })));
    const keys = claims.flat().map((c) => `${c.monitorId}:${c.location}`);
    expect(keys).to.have.length(400);
    expect(new Set(keys).size).to.equal(400);
  });

  it('gives a dead worker\'s slots to another worker once the lease lapses, and drops the late completion', async () => {
    const s = await schedule();
    const monitorId = ++nextMonitor;
    const locations = locationsFor('lease');
    const now = new Date();
    await s.plan(monitorId, locations.slice(0, 1), MIN, new Date(now.getTime() - MIN));
    const [dead] = await s.claimDue({ locations, now, limit: 10, leaseMs: 5_000, workerId: 'dead' });
    expect(await s.claimDue({ locations, now: new Date(now.getTime() + 4_000), limit: 10, leaseMs: 5_000, workerId: 'w2' })).to.deep.equal([]);
    const [rescued] = await s.claimDue({ locations, now: new Date(now.getTime() + 6_000), limit: 10, leaseMs: 5_000, workerId: 'w2' });
    expect(rescued!.slot).to.deep.equal(dead!.slot);

    const done = (c: ClaimedCheck, at: Date) => ({ check: c, nextSlot: slotAfterCompletion(at, c.intervalMs, c.phaseMs) });
    const completedAt = new Date(now.getTime() + 7_000);
    expect(await s.complete('w2', [done(rescued!, completedAt)])).to.have.length(1);
    expect(await s.complete('dead', [done(dead!, completedAt)])).to.have.length(0);
    const next = await s.claimDue({ locations, now: new Date(now.getTime() + 2 * MIN), limit: 10, leaseMs: 5_000, workerId: 'w2' });
    expect(next).to.have.length(1);
    expect(next[0]!.slot.getTime()).to.be.greaterThan(rescued!.slot.getTime());
  });

  it('makes a monitor due now for trigger-check, but leaves a running slot alone', async () => {
    const s = await schedule();
    const monitorId = ++nextMonitor;
    const locations = locationsFor('trigger');
    const now = new Date();
    await s.plan(monitorId, locations, 60 * MIN, now);
    expect(await s.dueNow(monitorId, now)).to.equal(2);
    const claimed = await s.claimDue({ locations, now, limit: 10, leaseMs: 30_000, workerId: 'w1' });
    expect(claimed).to.have.length(2);
    expect(await s.dueNow(monitorId, now)).to.equal(0);
  });

  it('re-plans on a new interval or location list, and unplans', async () => {
    const s = await schedule();
    const monitorId = ++nextMonitor;
    const [a, b] = locationsFor('replan');
    const now = new Date();
    await s.plan(monitorId, [a!, b!], MIN, now);
    await s.plan(monitorId, [b!], 5 * MIN, now);
    const far = new Date(now.getTime() + 10 * MIN);
    const claimed = await s.claimDue({ locations: [a!, b!], now: far, limit: 10, leaseMs: 1000, workerId: 'w' });
    expect(claimed.map((c) => [c.location, c.intervalMs])).to.deep.equal([[b, 5 * MIN]]);
    await s.unplan(monitorId);
    expect(await s.claimDue({ locations: [a!, b!], now: new Date(far.getTime() + 10 * MIN), limit: 10, leaseMs: 1000, workerId: 'w' })).to.deep.equal([]);
  });
});
