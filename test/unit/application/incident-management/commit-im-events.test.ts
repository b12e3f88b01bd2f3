import { expect } from 'chai';
import { ManualClock } from '../../../support/manual-clock';
import { immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeImEventBatchStore, FakeImIncidents } from '../../../support/fakes/incident-management-fakes';
import { CommitImEvents } from '../../../../src/application/incident-management/commit-im-events';
import { ProcessImEvent, type ImEvent } from '../../../../src/application/incident-management/process-im-event';

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
    const process = new ProcessImEvent(oneByOne, immediateTransactions, sequentialIds(), new ManualClock());
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
});
