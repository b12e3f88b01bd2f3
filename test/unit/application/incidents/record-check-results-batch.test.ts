import { aCheckResultWorld } from '../../../support/builders/incidents';
import { FakeTransaction } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import { type RecordCheckResultInput } from '../../../../src/application/incidents/record-check-result';
import { AlertState } from '../../../../src/domain/incidents/alert-state';
import { SteadyMemo } from '../../../../src/application/incidents/steady-memo';
import type { CheckStatus } from '../../../../src/domain/results/check-status';
import { FakeAlertStateChanges, FakeIncidents, aPolicy } from '../../../support/fakes/incidents-fakes';
import { FakeMonitorLookup } from '../../../support/fakes/results-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { aResult } from '../../../support/builders';

const t0 = new Date('2026-11-22T10:00:00Z');
const clock = new ManualClock('2026-11-22T12:00:00Z');
const at = (minute: number) => new Date(t0.getTime() + minute * 60_000);

/** Monitor 7 of customer 2 alerting on `policy`, its results fed in batches (`input` at a minute from t0, from a location). */
function aBatchWorld(memo = new SteadyMemo(), policy = aPolicy({})) {
  const world = aCheckResultWorld({ clock, memo, monitors: new FakeMonitorLookup(undefined, policy) });
  const input = (status: CheckStatus, minute: number, location = 'eu'): RecordCheckResultInput => ({
    monitorId: 7,
    organizationId: 1,
    customerId: 2,
    location,
    intervalMs: 60_000,
    result: aResult(status, at(minute), { timings: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 4, totalMs: 50 } }),
  });
  return { ...world, input };
}

describe('RecordCheckResult.executeMany (the engine batch path)', () => {
  it('judges the first result of a location the full way, then stores steady ups, one sample per hour with detail', async () => {
    const { results, states, useCase, input } = aBatchWorld();
    expect((await useCase.executeMany([input('up', 0)], new FakeTransaction())).steady).to.equal(0);
    expect(results.rows[0]!.detail).not.to.equal(null);
    const hours = Array.from({ length: 120 }, (_, i) => input('up', 1 + i));
    expect((await useCase.executeMany(hours, new FakeTransaction())).steady).to.equal(120);
    const sampled = results.rows.slice(1).filter((r) => r.detail !== null);
    expect(sampled).to.have.length(2);
    expect(sampled[0]!.detail).to.deep.include({ timings: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 4, totalMs: 50 } });
    expect(sampled[1]!.checkedAt.getTime() - sampled[0]!.checkedAt.getTime()).to.equal(60 * 60_000);
    expect(states.rows.get(7)!.location('eu')!.lastCheckedAt).to.deep.equal(at(0));
  });

  it('sends a down and an up after a down through the rules', async () => {
    const { results, incidents, useCase, input } = aBatchWorld();
    await useCase.executeMany([input('up', 0)], new FakeTransaction());
    expect((await useCase.executeMany([input('down', 1), input('down', 2)], new FakeTransaction())).steady).to.equal(0);
    expect([...incidents.rows.values()].filter((i) => i.status === 'open')).to.have.length(1);
    expect((await useCase.executeMany([input('up', 3)], new FakeTransaction())).steady).to.equal(0);
    expect([...incidents.rows.values()].filter((i) => i.status === 'open')).to.have.length(0);
    expect(results.rows.at(-1)!.detail).not.to.equal(null);
    expect((await useCase.executeMany([input('up', 4)], new FakeTransaction())).steady).to.equal(1);
  });
});

describe('RecordCheckResult.executeMany with a memo of steady monitors', () => {
  async function remembering() {
    const memo = new SteadyMemo();
    const feed = new FakeAlertStateChanges();
    await memo.follow(feed);
    return { ...aBatchWorld(memo), feed };
  }

  it('reads no state for a monitor it knows is steady, and every state without a feed', async () => {
    const { states, useCase, input } = await remembering();
    await useCase.executeMany([input('up', 0)], new FakeTransaction());
    await useCase.executeMany([input('up', 1)], new FakeTransaction());
    expect(states.peeked).to.deep.equal([[7], [7]]);
    expect((await useCase.executeMany([input('up', 2), input('up', 3)], new FakeTransaction())).steady).to.equal(2);
    expect(states.peeked, 'the steady batch read nothing').to.deep.equal([[7], [7]]);

    const unfollowed = aBatchWorld();
    await unfollowed.useCase.executeMany([unfollowed.input('up', 0)], new FakeTransaction());
    await unfollowed.useCase.executeMany([unfollowed.input('up', 1)], new FakeTransaction());
    await unfollowed.useCase.executeMany([unfollowed.input('up', 2)], new FakeTransaction());
    expect(unfollowed.states.peeked).to.deep.equal([[7], [7], [7]]);
  });

  it('reads no state before the lock for a batch of failures: only an up result can be steady', async () => {
    const { states, incidents, useCase, input } = await remembering();
    expect((await useCase.executeMany([input('down', 0), input('down', 1)], new FakeTransaction())).steady).to.equal(0);
    expect(states.peeked, 'the rules lock and read the state once').to.deep.equal([]);
    expect([...incidents.rows.values()].filter((i) => i.status === 'open')).to.have.length(1);
    await useCase.executeMany([input('down', 2), input('up', 3)], new FakeTransaction());
    expect(states.peeked, 'the up result of the batch is looked up').to.deep.equal([[7]]);
    expect(
      [...incidents.rows.values()].filter((i) => i.status === 'open'),
      'judged in order: the up came last',
    ).to.have.length(0);
  });

  it('judges a down of a remembered monitor by the rules, and reads the state again after it', async () => {
    const { states, incidents, useCase, input } = await remembering();
    await useCase.executeMany([input('up', 0)], new FakeTransaction());
    await useCase.executeMany([input('up', 1)], new FakeTransaction());
    expect((await useCase.executeMany([input('down', 2), input('down', 3)], new FakeTransaction())).steady).to.equal(0);
    expect([...incidents.rows.values()].filter((i) => i.status === 'open')).to.have.length(1);
    expect((await useCase.executeMany([input('up', 4)], new FakeTransaction())).steady, 'the recovery').to.equal(0);
    expect((await useCase.executeMany([input('up', 5)], new FakeTransaction())).steady).to.equal(1);
    expect(states.peeked.at(-1)).to.deep.equal([7]);
  });

  it('reads the state again once told it changed elsewhere, and then sees the incident another location opened', async () => {
    const { states, useCase, input, feed } = await remembering();
    await useCase.executeMany([input('up', 0)], new FakeTransaction());
    await useCase.executeMany([input('up', 1)], new FakeTransaction());
    const stored = states.rows.get(7)!;
    // another worker's location opened an incident
    states.rows.set(
      7,
      AlertState.restore({
        monitorId: 7,
        organizationId: stored.organizationId,
        customerId: stored.customerId,
        checkIntervalSeconds: stored.checkIntervalSeconds,
        now: stored.updatedAt,
        openIncidentId: 99,
        locations: { ...stored.locations },
        lastReminderAt: stored.lastReminderAt,
        sslExpiry: stored.sslExpiry,
        dnsbl: stored.dnsbl,
      }),
    );
    feed.changed(7);
    expect((await useCase.executeMany([input('up', 2)], new FakeTransaction())).steady).to.equal(0);
    expect(states.peeked.at(-1)).to.deep.equal([7]);
  });
});

describe('AlertState.isSteady', () => {
  const state = (
    changes: { lastStatus?: 'up' | 'down'; openIncidentId?: number; sslExpiry?: { since: string; lastNotifiedAt: null } } = {},
  ) =>
    AlertState.restore({
      monitorId: 1,
      organizationId: 1,
      customerId: 1,
      checkIntervalSeconds: 60,
      now: t0,
      openIncidentId: changes.openIncidentId ?? null,
      locations: {
        eu: {
          consecutiveFailures: 0,
          failingSince: null,
          lastStatus: changes.lastStatus ?? 'up',
          lastReasonCode: null,
          lastCheckedAt: t0.toISOString(),
        },
      },
      lastReminderAt: null,
      sslExpiry: changes.sslExpiry ?? null,
      dnsbl: null,
    });
  it('holds for an up of an up location with nothing open', () => expect(state().isSteady('eu', 'up')).to.equal(true));
  it('fails for a non-up result', () => expect(state().isSteady('eu', 'degraded')).to.equal(false));
  it('fails for an unknown or failing location', () => {
    expect(state().isSteady('us', 'up')).to.equal(false);
    expect(state({ lastStatus: 'down' }).isSteady('eu', 'up')).to.equal(false);
  });
  it('fails while an incident is open or a reminder series runs', () => {
    expect(state({ openIncidentId: 3 }).isSteady('eu', 'up')).to.equal(false);
    expect(state({ sslExpiry: { since: t0.toISOString(), lastNotifiedAt: null } }).isSteady('eu', 'up')).to.equal(false);
  });
});

describe('RecordCheckResult.executeMany: one read and one write of each kind per batch', () => {
  it('judges a batch with one profile read, one lock and one state save, and opens, resolves and reopens within it', async () => {
    const { useCase, input, incidents, states, results } = aBatchWorld();
    const lookup = (useCase as unknown as { monitors: FakeMonitorLookup }).monitors;
    const reserved: number[] = [];
    const reserve = incidents.reserveIds.bind(incidents);
    incidents.reserveIds = async (count) => {
      reserved.push(count);
      return reserve(count);
    };
    const batch = await useCase.executeMany(
      [input('down', 1), input('up', 2), input('down', 3), input('down', 4, 'us')],
      new FakeTransaction(),
    );
    expect(batch.judged.map((j) => j.location)).to.deep.equal(['eu', 'eu', 'eu', 'us']);
    expect(lookup.profileReads, 'one read of the profiles').to.deep.equal([[7]]);
    expect(states.locked, 'one lock').to.deep.equal([[7]]);
    expect(reserved, 'ids taken once, for the downs still to judge').to.deep.equal([3]);
    expect([...incidents.rows.values()].map((i) => i.status)).to.deep.equal(['resolved', 'open']);
    expect(states.rows.get(7)!.openIncidentId).to.equal([...incidents.rows.keys()][1]);
    expect(results.rows).to.have.length(4);
  });

  it('takes no incident id while nothing opens', async () => {
    const { useCase, input, incidents } = aBatchWorld();
    let reservations = 0;
    const reserve = incidents.reserveIds.bind(incidents);
    incidents.reserveIds = async (count) => {
      reservations += 1;
      return reserve(count);
    };
    await useCase.executeMany([input('up', 1), input('up', 2)], new FakeTransaction());
    expect(reservations).to.equal(0);
  });
});

describe('RecordCheckResult.executeMany with silent locations (quorum and honesty)', () => {
  const twoOfTwo = aPolicy({ locations: ['eu', 'us'], locationThreshold: '1.0' });
  const openIncidents = (incidents: FakeIncidents) => [...incidents.rows.values()].filter((i) => i.status !== 'resolved');

  it('reads the live locations once per judged batch, and not at all for a steady one', async () => {
    const { live, useCase, input } = aBatchWorld();
    await useCase.executeMany([input('up', 0)], new FakeTransaction());
    expect(live.reads).to.equal(1);
    await useCase.executeMany([input('up', 1), input('up', 2)], new FakeTransaction());
    expect(live.reads, 'steady: no read').to.equal(1);
    await useCase.executeMany([input('down', 3), input('down', 4), input('up', 5)], new FakeTransaction());
    expect(live.reads, 'one read for the whole judged batch').to.equal(2);
  });

  it("opens nothing on one location's failures while the other is silent, and opens once it is back", async () => {
    const { live, incidents, states, useCase, input } = aBatchWorld(new SteadyMemo(), twoOfTwo);
    live.silence('us');
    await useCase.executeMany([input('down', 0, 'us')], new FakeTransaction());
    await useCase.executeMany([input('down', 1), input('down', 2)], new FakeTransaction());
    expect(openIncidents(incidents), 'us is silent: its old failure does not count').to.have.length(0);
    live.serve('us');
    await useCase.executeMany([input('down', 3)], new FakeTransaction());
    expect(openIncidents(incidents)).to.have.length(1);
    expect(states.rows.get(7)!.openIncidentId).to.equal(openIncidents(incidents)[0]!.id);
  });

  it('counts a location reporting in the batch as live, whatever the last read said', async () => {
    const { live, incidents, useCase, input } = aBatchWorld(new SteadyMemo(), twoOfTwo);
    live.silence('eu', 'us');
    await useCase.executeMany([input('down', 0, 'us'), input('down', 0)], new FakeTransaction());
    expect(openIncidents(incidents)).to.have.length(1);
  });
});
