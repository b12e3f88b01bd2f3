import { expect } from 'chai';
import { ManualClock } from '../../../support/manual-clock';
import { sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeImEventBatchStore, FakeImIncidents } from '../../../support/fakes/incident-management-fakes';
import { CommitImEvents } from '../../../../src/application/incident-management/commit-im-events';
import type { ImEvent } from '../../../../src/application/incident-management/im-event';

const scope = { organizationId: 1, customerId: null };
const other = { organizationId: 2, customerId: null };
const trigger = (dedupKey: string, summary = 'Disk full'): ImEvent => ({
  action: 'trigger',
  dedupKey,
  summary,
  severity: 'error',
  source: 'db-1',
  details: { n: summary },
});
const acknowledge = (dedupKey: string): ImEvent => ({ action: 'acknowledge', dedupKey, details: {} });
const resolve = (dedupKey: string): ImEvent => ({ action: 'resolve', dedupKey, details: { by: 'tool' } });

/** What is stored, in a form two runs can be compared by (ids aside). */
const stored = (incidents: FakeImIncidents) =>
  [...incidents.rows.values()].map((i) => ({
    organizationId: i.organizationId,
    dedupKey: i.dedupKey,
    status: i.status,
    occurrences: i.occurrenceCount,
    version: i.version,
    timeline: (incidents.timelines.get(i.id) ?? []).map((e) => [e.kind, e.details]),
  }));

describe('committing IM events in batches', () => {
  const sequence: Array<[typeof scope, ImEvent]> = [
    [scope, trigger('k', 'first')],
    [scope, trigger('k', 'second')],
    [other, trigger('k', 'other org')],
    [scope, acknowledge('k')],
    [scope, acknowledge('k')],
    [scope, trigger('k', 'third')],
    [scope, resolve('k')],
    [scope, resolve('k')],
    [scope, acknowledge('k')],
    [scope, trigger('k', 'reopened')],
    [scope, resolve('never-seen')],
  ];

  it('gives several events for the same key in one batch the result of applying them one by one in arrival order', async () => {
    const oneByOne = new FakeImIncidents();
    // One by one: each event committed alone (awaited before the next is submitted).
    const process = new CommitImEvents(new FakeImEventBatchStore(oneByOne), sequentialIds(), new ManualClock());
    const expected = [];
    for (const [s, event] of sequence) expected.push((await process.execute(s, event)).outcome);

    const batched = new FakeImIncidents();
    const store = new FakeImEventBatchStore(batched);
    const commit = new CommitImEvents(store, sequentialIds(), new ManualClock(), { maxSize: 100, maxWaitMs: 5 });
    const results = await Promise.all(sequence.map(([s, event]) => commit.execute(s, event)));

    expect(store.batches).to.have.lengthOf(1);
    expect(results.map((r) => r.outcome)).to.deep.equal(expected);
    expect(results.map((r) => r.outcome)).to.deep.equal([
      'created',
      'occurrence',
      'created',
      'acknowledged',
      'ignored',
      'occurrence',
      'resolved',
      'ignored',
      'ignored',
      'created',
      'ignored',
    ]);
    expect(stored(batched)).to.deep.equal(stored(oneByOne));
  });

  it('gives the same result however the events are split into batches', async () => {
    const whole = new FakeImIncidents();
    const wholeCommit = new CommitImEvents(new FakeImEventBatchStore(whole), sequentialIds(), new ManualClock(), {
      maxSize: 100,
      maxWaitMs: 5,
    });
    await Promise.all(sequence.map(([s, event]) => wholeCommit.execute(s, event)));
    const split = new FakeImIncidents();
    const store = new FakeImEventBatchStore(split);
    const splitCommit = new CommitImEvents(store, sequentialIds(), new ManualClock(), { maxSize: 3, maxWaitMs: 5 });
    for (let i = 0; i < sequence.length; i += 3) {
      await Promise.all(sequence.slice(i, i + 3).map(([s, event]) => splitCommit.execute(s, event)));
    }
    expect(store.batches).to.have.lengthOf(4);
    expect(stored(split)).to.deep.equal(stored(whole));
  });

  it('answers a trigger without a key with a fresh one, and a failed batch fails only its own events', async () => {
    const incidents = new FakeImIncidents();
    const store = new FakeImEventBatchStore(incidents);
    const commit = new CommitImEvents(store, sequentialIds(), new ManualClock(), { maxSize: 2, maxWaitMs: 5 });
    const keyless = await commit.execute(scope, { ...trigger('x'), dedupKey: undefined });
    expect(keyless.dedupKey).to.be.a('string').and.not.equal('x');
    expect(keyless.outcome).to.equal('created');

    store.failNext = true;
    const outcomes = await Promise.allSettled([
      commit.execute(scope, trigger('a')),
      commit.execute(scope, trigger('b')),
      commit.execute(scope, trigger('c')),
      commit.execute(scope, trigger('d')),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect([...incidents.rows.values()].map((i) => i.dedupKey).sort()).to.deep.equal(['c', 'd', keyless.dedupKey].sort());
  });

  it("commits a request's events together, in their order, with other requests' events, and answers them together", async () => {
    const incidents = new FakeImIncidents();
    const store = new FakeImEventBatchStore(incidents);
    const commit = new CommitImEvents(store, sequentialIds(), new ManualClock(), { maxSize: 4, maxWaitMs: 5 });
    const [payload, single, others] = await Promise.all([
      commit.executeAll(scope, [trigger('p'), acknowledge('p'), resolve('p'), trigger('p', 'again')]),
      commit.execute(scope, trigger('s')),
      commit.executeAll(other, [trigger('o1'), trigger('o2')]),
    ]);
    expect(payload.map((r) => r.outcome)).to.deep.equal(['created', 'acknowledged', 'resolved', 'created']);
    expect(payload[0]!.incidentId).to.not.equal(payload[3]!.incidentId);
    expect(single.outcome).to.equal('created');
    expect(others.map((r) => r.outcome)).to.deep.equal(['created', 'created']);
    // The payload fills a batch of 4 on its own; the next two requests (3 events) share one.
    expect(store.batches.map((keys) => keys.map((k) => k.dedupKey))).to.deep.equal([['p'], ['s', 'o1', 'o2']]);
    expect([...incidents.rows.values()].map((i) => [i.dedupKey, i.status]).sort()).to.deep.equal(
      [
        ['o1', 'triggered'],
        ['o2', 'triggered'],
        ['p', 'resolved'],
        ['p', 'triggered'],
        ['s', 'triggered'],
      ].sort(),
    );
  });

  it('commits a request of more events than a batch holds as one batch, and stores nothing for a request without events', async () => {
    const incidents = new FakeImIncidents();
    const store = new FakeImEventBatchStore(incidents);
    const commit = new CommitImEvents(store, sequentialIds(), new ManualClock(), { maxSize: 2, maxWaitMs: 5 });
    expect(await commit.executeAll(scope, [])).to.deep.equal([]);
    expect(store.batches).to.deep.equal([]);
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const results = await commit.executeAll(
      scope,
      keys.map((k) => trigger(k)),
    );
    expect(results.map((r) => [r.dedupKey, r.outcome])).to.deep.equal(keys.map((k) => [k, 'created']));
    expect(store.batches).to.have.lengthOf(1);
    expect(incidents.rows.size).to.equal(5);
  });

  it('fails every event of a request whose batch fails, and stores none of them', async () => {
    const incidents = new FakeImIncidents();
    const store = new FakeImEventBatchStore(incidents);
    const commit = new CommitImEvents(store, sequentialIds(), new ManualClock(), { maxSize: 10, maxWaitMs: 5 });
    store.failNext = true;
    const [failed] = await Promise.allSettled([commit.executeAll(scope, [trigger('x'), trigger('y')])]);
    expect(failed.status).to.equal('rejected');
    expect(((failed as PromiseRejectedResult).reason as Error).message).to.equal('batch refused');
    expect(incidents.rows.size).to.equal(0);
  });
});
