import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { aCallerSet } from '../../../support/callers';
import { eventsDecided, setIncidentManagement } from '../../../support/im-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { CommitImEvents } from '../../../../src/application/incident-management/commit-im-events';
import type { ImEvent } from '../../../../src/application/incident-management/im-event';
import { AdmitImEvent } from '../../../../src/application/incident-management/admit-im-event';
import { PostgresSharedRateCounter } from '../../../../src/infrastructure/rate-limit/postgres-rate-limiter';
import { randomUUID } from 'node:crypto';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { IM_EVENT_BATCH_STORE, type ImEventBatchStore } from '../../../../src/application/incident-management/ports';
import { SqlImEventBatchStore } from '../../../../src/infrastructure/incident-management/sql-im-event-batch';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import type { SqlRunner } from '../../../../src/infrastructure/persistence/database';
import type { RunningApplication } from '../../../../src/main/application';

const trigger = (dedupKey: string, summary: string): ImEvent => ({
  action: 'trigger',
  dedupKey,
  summary,
  severity: 'error',
  source: 'db-1',
  details: { summary },
});
const acknowledge = (dedupKey: string): ImEvent => ({ action: 'acknowledge', dedupKey, details: {} });
const resolve = (dedupKey: string): ImEvent => ({ action: 'resolve', dedupKey, details: { by: 'tool' } });
const ids = { uuid: () => randomUUID() };
/** The host's store (SqlImEventBatchStore on the plain pool, its locked attempts in the TransactionRunner's transaction). */
const storeOf = (app: RunningApplication) => app.container.get<ImEventBatchStore>(IM_EVENT_BATCH_STORE);

/** An organization with IM on: its scope and the organization-wide token. */
async function anImOrganization() {
  const callers = await aCallerSet();
  await setIncidentManagement(callers.organizationId, true);
  return { callers, scope: { organizationId: callers.organizationId, customerId: null } };
}

/** What PostgreSQL holds of an organization's incidents, in a form two organizations can be compared by. */
async function storedOf(organizationId: number) {
  const { database } = await testServer();
  const incidents = await database.sql.query<{ id: number; dedup_key: string; status: string; occurrence_count: number; version: number }>(
    sql`SELECT id, dedup_key, status, occurrence_count, version FROM im_incidents WHERE organization_id = ${organizationId} ORDER BY id`,
  );
  const result = [];
  for (const i of incidents) {
    const timeline = await database.sql.query<{ kind: string; details: unknown }>(
      sql`SELECT kind, details FROM im_incident_timeline WHERE incident_id = ${i.id} ORDER BY id`,
    );
    result.push({ key: i.dedup_key, status: i.status, occurrences: i.occurrence_count, version: i.version, timeline });
  }
  return result;
}

describe('event batches on PostgreSQL', function () {
  this.timeout(60_000);
  const sequence = [
    trigger('k', 'first'),
    trigger('k', 'second'),
    acknowledge('k'),
    acknowledge('k'),
    trigger('k', 'third'),
    resolve('k'),
    resolve('k'),
    trigger('k', 'reopened'),
    trigger('j', 'another key'),
    resolve('unknown'),
  ];

  it('stores several events for the same key in one batch as applying them one by one in arrival order stores them', async () => {
    const app = await testServer();
    const oneByOne = await anImOrganization();
    // One by one, as the events API applies them: the host's committer, each event awaited before the next.
    const process = app.container.get(CommitImEvents);
    const expected = [];
    for (const event of sequence) expected.push((await process.execute(oneByOne.scope, event)).outcome);

    const batched = await anImOrganization();
    const commit = new CommitImEvents(storeOf(app), ids, testClock, {
      maxSize: 100,
      maxWaitMs: 20,
    });
    const outcomes = (await Promise.all(sequence.map((event) => commit.execute(batched.scope, event)))).map((r) => r.outcome);

    expect(outcomes).to.deep.equal(expected);
    expect(outcomes).to.deep.equal([
      'created',
      'occurrence',
      'acknowledged',
      'ignored',
      'occurrence',
      'resolved',
      'ignored',
      'created',
      'created',
      'ignored',
    ]);
    expect(await storedOf(batched.scope.organizationId)).to.deep.equal(await storedOf(oneByOne.scope.organizationId));
  });

  it('two committers (two processes) triggering the same keys at once open one incident per key, every occurrence counted', async () => {
    const app = await testServer();
    const { scope } = await anImOrganization();
    const committers = [1, 2].map(() => new CommitImEvents(storeOf(app), ids, testClock, { maxSize: 7, maxWaitMs: 2 }));
    const keys = ['a', 'b', 'c'];
    const results = await Promise.all(
      Array.from({ length: 90 }, (_, i) => committers[i % 2]!.execute(scope, trigger(keys[i % 3]!, `event ${i}`))),
    );
    expect(results.filter((r) => r.outcome === 'created')).to.have.lengthOf(3);
    const stored = await storedOf(scope.organizationId);
    expect(stored.map((s) => [s.key, s.status, s.occurrences]).sort()).to.deep.equal([
      ['a', 'triggered', 30],
      ['b', 'triggered', 30],
      ['c', 'triggered', 30],
    ]);
    for (const s of stored) expect(s.timeline).to.have.lengthOf(30);
  });

  /**
   * A store whose first `staleReads` unlocked reads are each followed, before the batch writes, by
   * another writer changing the open incident (acknowledged, its version moved: a new version of its row); its
   * locked attempts are counted.
   */
  function racedStore(app: RunningApplication, organizationId: number, staleReads: number) {
    const seen = { reads: 0, lockedAttempts: 0 };
    const sqlRunner: SqlRunner = {
      query: async (statement, options) => {
        const rows = await app.database.sql.query(statement, options);
        if (/WHERE organization_id = u\.o AND dedup_key = u\.d/.test(statement.text) && ++seen.reads <= staleReads) {
          await app.database.sql.query(
            sql`UPDATE im_incidents SET status = 'acknowledged', acknowledged_at = coalesce(acknowledged_at, now()), version = version + 1
                 WHERE organization_id = ${organizationId} AND status IN ('triggered', 'acknowledged')`,
          );
        }
        return rows as never;
      },
    };
    const runner = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const locked: TransactionRunner = {
      run: (work) => {
        seen.lockedAttempts++;
        return runner.run(work);
      },
    };
    return { store: new SqlImEventBatchStore(sqlRunner, locked), seen };
  }

  it('a batch whose incident changed between its read and its write writes nothing, is read again and decided on the new version', async () => {
    const app = await testServer();
    const { scope } = await anImOrganization();
    await app.container.get(CommitImEvents).execute(scope, trigger('s', 'first'));
    const { store, seen } = racedStore(app, scope.organizationId, 1);
    const result = await new CommitImEvents(store, ids, testClock, { maxSize: 10, maxWaitMs: 1 }).execute(scope, acknowledge('s'));

    // Read again after the other writer's acknowledgement: this one is ignored, and the stale attempt left nothing.
    expect(result.outcome).to.equal('ignored');
    expect(seen).to.deep.equal({ reads: 2, lockedAttempts: 0 });
    const [stored] = await storedOf(scope.organizationId);
    expect(stored).to.deep.include({ status: 'acknowledged', occurrences: 1, version: 2 });
    expect(stored!.timeline.map((e) => e.kind)).to.deep.equal(['triggered']);
  });

  it('a batch that keeps losing the race takes its keys locked in the TransactionRunner and commits', async () => {
    const app = await testServer();
    const { scope } = await anImOrganization();
    const commit = app.container.get(CommitImEvents);
    await commit.execute(scope, trigger('t', 'first'));
    const { store, seen } = racedStore(app, scope.organizationId, 2);
    const result = await new CommitImEvents(store, ids, testClock, { maxSize: 10, maxWaitMs: 1 }).execute(scope, trigger('t', 'second'));

    expect(result.outcome).to.equal('occurrence');
    expect(seen).to.deep.equal({ reads: 2, lockedAttempts: 1 });
    const [stored] = await storedOf(scope.organizationId);
    // Two changes by the other writer (version 3), then the occurrence, once.
    expect(stored).to.deep.include({ status: 'acknowledged', occurrences: 2, version: 3 });
    expect(stored!.timeline.map((e) => e.kind)).to.deep.equal(['triggered', 'occurrence']);
  });

  it('a batch whose write PostgreSQL broke off in a deadlock with another batch is read and decided again, without the locks', async () => {
    const app = await testServer();
    const { scope } = await anImOrganization();
    const seen = { writes: 0, lockedAttempts: 0 };
    const deadlocking: SqlRunner = {
      query: async (statement, options) => {
        // PostgreSQL's answer to the loser of a deadlock (40P01): its statement rolled back whole.
        if (/INSERT INTO im_incident_timeline/.test(statement.text) && ++seen.writes === 1) {
          throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
        }
        return (await app.database.sql.query(statement, options)) as never;
      },
    };
    const runner = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const locked: TransactionRunner = {
      run: (work) => {
        seen.lockedAttempts++;
        return runner.run(work);
      },
    };
    const store = new SqlImEventBatchStore(deadlocking, locked);
    const result = await new CommitImEvents(store, ids, testClock, { maxSize: 10, maxWaitMs: 1 }).execute(scope, trigger('d', 'first'));

    expect(result.outcome).to.equal('created');
    expect(seen).to.deep.equal({ writes: 2, lockedAttempts: 0 });
    const stored = await storedOf(scope.organizationId);
    expect(stored).to.have.length(1);
    expect(stored[0]).to.deep.include({ status: 'triggered', occurrences: 1 });
  });

  it('through HTTP: events sent at once for one key give what they give one by one', async () => {
    const { callers, scope } = await anImOrganization();
    const body = (event: ImEvent) => ({
      routing_key: 'r',
      event_action: event.action,
      dedup_key: event.dedupKey,
      ...(event.action === 'trigger' ? { payload: { summary: event.summary, source: 's', severity: 'error' } } : {}),
    });
    const responses = await Promise.all(
      [trigger('h', 'one'), trigger('h', 'two'), trigger('h', 'three')].map((event) =>
        api('POST', '/api/im/events', { token: callers.orgToken, body: body(event) }),
      ),
    );
    expect(responses.map((r) => r.status)).to.deep.equal([202, 202, 202]);
    // Accepted (durable) first, decided right after.
    await eventsDecided(scope.organizationId);
    const [stored] = await storedOf(scope.organizationId);
    expect(stored).to.deep.include({ key: 'h', status: 'triggered', occurrences: 3 });
    expect(stored!.timeline.map((e) => e.kind)).to.deep.equal(['triggered', 'occurrence', 'occurrence']);
  });
});

describe('the event rate across processes, on PostgreSQL', function () {
  this.timeout(60_000);
  it('admits fewer than limit + N x maxUnflushed when 3 processes share the counter, and exactly the limit with one', async () => {
    const app = await testServer();
    const rule = { name: `im-events-bound-${randomUUID().slice(0, 8)}`, limit: 100, windowSeconds: 3600 };
    const flush = { maxUnflushed: 10, everyMs: 60_000 };
    const counter = new PostgresSharedRateCounter(app.database.sql);
    const admits = [1, 2, 3].map(() => new AdmitImEvent(new PostgresSharedRateCounter(app.database.sql), testClock, rule, flush));
    let admitted = 0;
    await Promise.all(
      admits.map(async (admit) => {
        for (let i = 0; i < 100; i++) if ((await admit.decide(1)) === null) admitted++;
        await admit.write();
      }),
    );
    const windowStart = new Date(Math.floor(testClock.now().getTime() / 3_600_000) * 3_600_000);
    const total = (await counter.add(rule, windowStart, new Map([['1', 0]]))).get('1');
    expect(total).to.equal(admitted);
    expect(admitted)
      .to.be.at.least(rule.limit)
      .and.below(rule.limit + 3 * flush.maxUnflushed);

    const alone = new AdmitImEvent(counter, testClock, rule, flush);
    let aloneAdmitted = 0;
    for (let i = 0; i < 150; i++) if ((await alone.decide(2)) === null) aloneAdmitted++;
    expect(aloneAdmitted).to.equal(rule.limit);
  });
});
