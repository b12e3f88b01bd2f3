import { expect } from 'chai';
import { AlertState } from '../../../../src/domain/incidents/alert-state';
import {
  judgeBatch,
  judgeWith,
  type BatchFacts,
  type BatchObservation,
  type JudgedProfile,
} from '../../../../src/domain/incidents/batch-judgement';
import type { NewIncidentRef } from '../../../../src/domain/incidents/alert-effects';
import { Incident } from '../../../../src/domain/incidents/incident';
import type { AlertPolicy } from '../../../../src/domain/results/alert-policy';
import type { CheckStatus } from '../../../../src/domain/results/check-status';

/** The batch judgement is pure: these tests hand it plain values and read its decisions, with no store of any kind. */
const t0 = new Date('2026-11-22T10:00:00Z');
const now = new Date('2026-11-22T10:30:00Z');
const at = (minute: number) => new Date(t0.getTime() + minute * 60_000);
const policy = (over: Partial<AlertPolicy> = {}): AlertPolicy => ({
  consecutiveChecks: 1,
  retryIntervalSeconds: 20,
  locationThreshold: '0.50',
  locationThresholdCount: 1,
  reminderIntervalMinutes: 0,
  sslExpiryReminderDays: null,
  dnsblReminderDays: null,
  locations: ['eu'],
  ...over,
});
const profile = (monitorId: number, over: Partial<AlertPolicy> = {}, dependsOn: number[] = []): JudgedProfile => ({
  monitor: { monitorId, publicId: `m-${monitorId}`, name: `site ${monitorId}`, checkIntervalSeconds: 60 },
  policy: policy(over),
  dependsOn,
});
const stateOf = (monitorId: number) => new AlertState({ monitorId, organizationId: 1, customerId: 2, checkIntervalSeconds: 60, now: t0 });
const observation = (monitorId: number, status: CheckStatus, minute: number, suppressed = false): BatchObservation => ({
  monitorId,
  location: 'eu',
  intervalMs: 60_000,
  suppressed,
  result: {
    status,
    checkedAt: at(minute),
    reasonCode: status === 'down' ? 'timeout' : null,
    message: status === 'down' ? 'no answer' : null,
    timings: { dnsMs: 1, connectMs: 2, tlsMs: null, firstByteMs: 3, totalMs: status === 'down' ? null : 40.4 },
    evidence: {},
  },
});

function facts(observations: BatchObservation[], profiles: JudgedProfile[], over: Partial<BatchFacts> = {}): BatchFacts {
  return {
    observations,
    profiles: new Map(profiles.map((p) => [p.monitor.monitorId, p])),
    states: new Map(profiles.map((p) => [p.monitor.monitorId, stateOf(p.monitor.monitorId)])),
    incidents: new Map(),
    outsideDependencies: new Map(),
    live: new Set(['eu']),
    detailSampleMinutes: 60,
    now,
    ...over,
  };
}

/** Ids as a store would reserve them, counting how often and how many were asked for. */
function idSource(first = 100) {
  const asked: number[] = [];
  let next = first;
  const reserve = (count: number): NewIncidentRef[] => {
    asked.push(count);
    return Array.from({ length: count }, () => ({ id: next, publicId: `inc-${next++}` }));
  };
  return { asked, reserve };
}

describe('judging a batch of results (domain: decisions without I/O)', () => {
  it('decides a storm in memory: results to store, states to move, incidents to open with their timeline and events, asking once for ids', () => {
    const profiles = [1, 2, 3].map((id) => profile(id));
    const ids = idSource();
    const decided = judgeWith(
      facts(
        [1, 2, 3].map((id) => observation(id, 'down', 1)),
        profiles,
      ),
      ids.reserve,
    );
    expect(ids.asked, 'one request for the batch, sized by its down results').to.deep.equal([3]);
    expect(decided.results.map((r) => [r.monitorId, r.status, r.detail?.message])).to.deep.equal([
      [1, 'down', 'no answer'],
      [2, 'down', 'no answer'],
      [3, 'down', 'no answer'],
    ]);
    expect(decided.states.map((s) => [s.monitorId, s.openIncidentId])).to.deep.equal([
      [1, 100],
      [2, 101],
      [3, 102],
    ]);
    const { effects } = decided;
    expect(effects.opened.map((i) => [i.id, i.publicId, i.monitorId, i.status, i.title])).to.deep.equal([
      [100, 'inc-100', 1, 'open', 'site 1 is down'],
      [101, 'inc-101', 2, 'open', 'site 2 is down'],
      [102, 'inc-102', 3, 'open', 'site 3 is down'],
    ]);
    expect(effects.opened[0]!.createdAt).to.deep.equal(now, 'the time passed in');
    expect(effects.timeline.map((e) => [e.incidentId, e.kind])).to.deep.equal([
      [100, 'opened'],
      [100, 'locationReport'],
      [101, 'opened'],
      [101, 'locationReport'],
      [102, 'opened'],
      [102, 'locationReport'],
    ]);
    expect(effects.events.map((e) => [e.kind, e.monitorId, e.incidentPublicId])).to.deep.equal([
      ['incidentOpened', 1, 'inc-100'],
      ['incidentOpened', 2, 'inc-101'],
      ['incidentOpened', 3, 'inc-102'],
    ]);
    expect(effects.routedOpenings.map((r) => r.monitor.publicId)).to.deep.equal(['m-1', 'm-2', 'm-3']);
    expect([...decided.judgements.values()].map((j) => [j.decisions, j.openIncidentId])).to.deep.equal([
      [['open'], 100],
      [['open'], 101],
      [['open'], 102],
    ]);
  });

  it('stops for ids only when an incident opens: a batch that opens nothing ends at once', () => {
    const run = judgeBatch(facts([observation(1, 'up', 1), observation(2, 'down', 1)], [profile(1), profile(2, { consecutiveChecks: 2 })]));
    const step = run.next();
    expect(step.done).to.equal(true);
    const decided = step.value as Exclude<typeof step.value, { count: number }>;
    expect(decided.effects.opened).to.deep.equal([]);
    // The failure waits for its confirmation, 20 s later.
    const judged = [...decided.judgements.values()];
    expect(judged[1]!.confirmAt).to.deep.equal(new Date(at(1).getTime() + 20_000));
    expect(judged[0]!.confirmAt).to.equal(null);
  });

  it('judges one monitor’s results one after the other: opened, resolved and opened again, ids asked once', () => {
    const ids = idSource();
    const decided = judgeWith(
      facts([observation(1, 'down', 1), observation(1, 'up', 2), observation(1, 'down', 3)], [profile(1)]),
      ids.reserve,
    );
    expect(ids.asked).to.deep.equal([2]);
    expect(decided.effects.opened.map((i) => [i.id, i.status])).to.deep.equal([
      [100, 'resolved'],
      [101, 'open'],
    ]);
    expect(decided.effects.resolvedBefore, 'opened within the batch: inserted resolved, no separate resolution').to.deep.equal([]);
    expect(decided.effects.events.map((e) => e.kind)).to.deep.equal(['incidentOpened', 'incidentResolved', 'incidentOpened']);
    expect(decided.states[0]!.openIncidentId).to.equal(101);
  });

  it('resolves an incident open before the batch, and lets go of one closed meanwhile', () => {
    const open = new Incident({
      id: 40,
      publicId: 'inc-40',
      organizationId: 1,
      customerId: 2,
      monitorId: 1,
      origin: 'automatic',
      title: 'site 1 is down',
      description: null,
      causeReasonCode: 'timeout',
      causeMessage: null,
      startedAt: at(0),
      createdByUserId: null,
      now: at(0),
    });
    const base = facts([observation(1, 'up', 2)], [profile(1)]);
    const state = base.states.get(1)!;
    state.observe({ location: 'eu', status: 'down', reasonCode: 'timeout', checkedAt: at(0) }, policy(), {
      suppressed: false,
      remindersMuted: false,
    });
    state.incidentOpened(40, at(0));
    const decided = judgeWith({ ...base, incidents: new Map([[40, open]]) }, idSource().reserve);
    expect(decided.effects.resolvedBefore.map((i) => [i.id, i.status, i.resolvedAt])).to.deep.equal([[40, 'resolved', at(2)]]);
    expect(decided.effects.routedResolutions.map((r) => r.incident.id)).to.deep.equal([40]);
    expect(decided.states[0]!.openIncidentId).to.equal(null);

    // The same incident closed by a person meanwhile: the state lets it go, and the recovery resolves nothing.
    const again = facts([observation(1, 'up', 2)], [profile(1)]);
    const held = again.states.get(1)!;
    held.observe({ location: 'eu', status: 'down', reasonCode: 'timeout', checkedAt: at(0) }, policy(), {
      suppressed: false,
      remindersMuted: false,
    });
    held.incidentOpened(40, at(0));
    const closed = judgeWith({ ...again, incidents: new Map([[40, open]]) }, idSource().reserve);
    expect(closed.effects.resolved).to.deep.equal([]);
    expect(closed.effects.events).to.deep.equal([]);
    expect(closed.states[0]!.openIncidentId).to.equal(null);
  });

  it('opens nothing during maintenance, and keeps the failure’s detail', () => {
    const decided = judgeWith(facts([observation(1, 'down', 1, true)], [profile(1)]), () => expect.fail('no id needed'));
    expect(decided.effects.opened).to.deep.equal([]);
    expect(decided.results[0]!.detail).to.not.equal(null);
  });

  it('holds back dependents of a root failing in the same batch, whichever result came first, and names the roots that recover', () => {
    const profiles = [profile(1), profile(2, {}, [1])];
    const ids = idSource();
    const decided = judgeWith(facts([observation(2, 'down', 1), observation(1, 'down', 1)], profiles), ids.reserve);
    expect(decided.effects.opened.map((i) => i.monitorId)).to.deep.equal([1]);
    expect(decided.states.find((s) => s.monitorId === 2)!.dependencyRootId).to.equal(1);
    // The root's message counts the monitors it holds (the store answers how many).
    decided.effects.tellAffected(new Map([[1, 1]]));
    expect(decided.effects.events[0]!.summary).to.equal('site 1 is down; 1 monitor depending on it is affected');

    const recovery = judgeWith(
      {
        ...facts([observation(1, 'up', 2)], [profile(1)]),
        states: new Map([[1, decided.states[0]!]]),
        incidents: new Map([[100, decided.effects.opened[0]!]]),
      },
      ids.reserve,
    );
    expect(recovery.recovered).to.deep.equal([1]);
  });

  it('a dependency outside the batch that is failing holds the monitor back too', () => {
    const decided = judgeWith(
      facts([observation(2, 'down', 1)], [profile(2, {}, [9])], {
        outsideDependencies: new Map([[9, { monitorId: 9, isFailing: true, dependencyRootId: null }]]),
      }),
      () => expect.fail('no id needed'),
    );
    expect(decided.effects.opened).to.deep.equal([]);
    expect(decided.states[0]!.dependencyRootId).to.equal(9);
  });

  it('stores an up result after an up without detail outside its sample, and rounds the response time', () => {
    const base = facts([observation(1, 'up', 1.5)], [profile(1)], { detailSampleMinutes: 60 });
    base.states.get(1)!.observe({ location: 'eu', status: 'up', reasonCode: null, checkedAt: at(0.5) }, policy(), {
      suppressed: false,
      remindersMuted: false,
    });
    const [row] = judgeWith(base, idSource().reserve).results;
    expect(row!.responseTimeMs).to.equal(40);
    expect(row!.detail).to.equal(null);
  });
});
