import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { aCallerSet } from '../../../support/callers';
import { eventsDecided, setIncidentManagement } from '../../../support/im-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { CommitImEvents } from '../../../../src/application/incident-management/commit-im-events';
import { AcceptImEvents } from '../../../../src/application/incident-management/accept-im-events';
import { DecideImEvents } from '../../../../src/application/incident-management/decide-im-events';
import type { ImEvent } from '../../../../src/application/incident-management/im-event';
import { IM_EVENT_BATCH_STORE, IM_EVENT_INTAKE_LOG, type ImEventBatchStore } from '../../../../src/application/incident-management/ports';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import { SqlImEventIntakeLog } from '../../../../src/infrastructure/incident-management/sql-im-event-intake';
import { sql } from '../../../../src/infrastructure/persistence/sql';
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

/** The host's transactions, each in an ORM context of its own (as the intake and the decider run them). */
const ownTransactions = (app: RunningApplication): TransactionRunner => {
  const runner = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
  return { run: (work) => runner.run(work) };
};

async function anImOrganization() {
  const callers = await aCallerSet();
  await setIncidentManagement(callers.organizationId, true);
  return { organizationId: callers.organizationId, customerId: null };
}

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

const pendingOf = async (app: RunningApplication, organizationId: number) =>
  Number(
    (
      await app.database.sql.query<{ n: string }>(
        sql`SELECT count(*)::text AS n FROM im_event_intake WHERE organization_id = ${organizationId}`,
      )
    )[0]!.n,
  );

describe('the event intake log and its deciders, on PostgreSQL', function () {
  this.timeout(90_000);
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

  it('decides accepted events, with three deciders racing (three processes), as committing them one by one does, each once', async () => {
    const app = await testServer();
    const oneByOne = await anImOrganization();
    const commit = app.container.get(CommitImEvents);
    for (const event of sequence) await commit.execute(oneByOne, event);

    const accepted = await anImOrganization();
    const accept = new AcceptImEvents(app.container.get(IM_EVENT_INTAKE_LOG), ownTransactions(app), ids, { maxSize: 3, maxWaitMs: 1 });
    // Accepted in order (each answered before the next is sent, as a sender waiting for its 202 does), with a
    // burst of triggers of other keys at once in between.
    for (const event of sequence.slice(0, 5)) await accept.execute(accepted, event);
    await Promise.all(Array.from({ length: 60 }, (_, i) => accept.execute(accepted, trigger(`burst-${i % 6}`, `burst ${i}`))));
    for (const event of sequence.slice(5)) await accept.execute(accepted, event);

    const store = app.container.get<ImEventBatchStore>(IM_EVENT_BATCH_STORE);
    const deciders = [1, 2, 3].map(() => new DecideImEvents(new SqlImEventIntakeLog(), store, ownTransactions(app), ids, testClock));
    // Small rounds, all at once, beside the host's own decider.
    await Promise.all(
      deciders.map(async (decider) => {
        while ((await pendingOf(app, accepted.organizationId)) > 0) await decider.decideNext(2);
      }),
    );

    const stored = await storedOf(accepted.organizationId);
    const bursts = stored.filter((s) => s.key.startsWith('burst-'));
    expect(bursts.map((s) => [s.key, s.occurrences, s.timeline.length]).sort()).to.deep.equal(
      Array.from({ length: 6 }, (_, i) => [`burst-${i}`, 10, 10]),
    );
    expect(stored.filter((s) => !s.key.startsWith('burst-'))).to.deep.equal(await storedOf(oneByOne.organizationId));
  });

  it('appends an event once however often its batch is sent (its intake key), and wakes nothing it did not append', async () => {
    const app = await testServer();
    const scope = await anImOrganization();
    const log = new SqlImEventIntakeLog();
    const batch = [1, 2, 3].map((n) => ({
      eventId: randomUUID(),
      organizationId: scope.organizationId,
      event: trigger(`again-${n}`, 'x'),
    }));
    // The host's decider is held off by taking its turn in an open transaction, so the entries stay to be counted.
    const holder = ownTransactions(app);
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    let held!: () => void;
    const holding = new Promise<void>((done) => (held = done));
    const turn = holder.run(async (tx) => {
      expect(await log.take(tx, 0)).to.deep.equal([]);
      held();
      await released;
    });
    await holding;
    try {
      await ownTransactions(app).run((tx) => log.append(tx, batch));
      await ownTransactions(app).run((tx) => log.append(tx, batch));
      expect(await pendingOf(app, scope.organizationId)).to.equal(3);
      // Another decider does not get the turn while it is held.
      expect(await ownTransactions(app).run((tx) => log.take(tx, 10))).to.equal(false);
    } finally {
      release();
      await turn;
    }
  });

  /** Holds the deciders' turn (in a transaction of its own) until the returned release is called. */
  async function holdTheTurn(app: RunningApplication) {
    const log = new SqlImEventIntakeLog();
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    let held!: () => void;
    const holding = new Promise<void>((done) => (held = done));
    const turn = ownTransactions(app).run(async (tx) => {
      expect(await log.take(tx, 0)).to.deep.equal([]);
      held();
      await released;
    });
    await holding;
    return async () => {
      release();
      await turn;
    };
  }

  it('an organization deleted takes its accepted, undecided events with it', async () => {
    const app = await testServer();
    const scope = await anImOrganization();
    const log = new SqlImEventIntakeLog();
    const release = await holdTheTurn(app);
    try {
      await ownTransactions(app).run((tx) =>
        log.append(
          tx,
          [1, 2].map((n) => ({ eventId: randomUUID(), organizationId: scope.organizationId, event: trigger(`gone-${n}`, 'x') })),
        ),
      );
      expect(await pendingOf(app, scope.organizationId)).to.equal(2);
      await app.database.sql.query(sql`DELETE FROM organizations WHERE id = ${scope.organizationId}`);
      expect(await pendingOf(app, scope.organizationId)).to.equal(0);
    } finally {
      await release();
    }
  });

  it('an event accepted while its organization was being deleted is removed by the decider, not decided, and holds back none after it', async () => {
    const app = await testServer();
    const deleted = await anImOrganization();
    const live = await anImOrganization();
    const log = new SqlImEventIntakeLog();
    const release = await holdTheTurn(app);
    try {
      await app.database.sql.query(sql`DELETE FROM organizations WHERE id = ${deleted.organizationId}`);
      // Appended after the deletion, as an append racing it commits: the log holds no key to refuse it.
      await ownTransactions(app).run((tx) =>
        log.append(tx, [
          { eventId: randomUUID(), organizationId: deleted.organizationId, event: trigger('orphan', 'x') },
          { eventId: randomUUID(), organizationId: live.organizationId, event: trigger('after-orphan', 'y') },
        ]),
      );
      expect(await pendingOf(app, deleted.organizationId)).to.equal(1);
    } finally {
      await release();
    }
    await eventsDecided(live.organizationId);
    expect(await pendingOf(app, deleted.organizationId)).to.equal(0);
    expect((await storedOf(live.organizationId)).map((s) => [s.key, s.status])).to.deep.equal([['after-orphan', 'triggered']]);
    const [orphans] = await app.database.sql.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM im_incidents WHERE organization_id = ${deleted.organizationId}`,
    );
    expect(orphans!.n).to.equal(0);
  });
});
