import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { aCallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { raw, sql } from '../../../../src/infrastructure/persistence/sql';
import { sqlOf, SqlTransaction } from '../../../../src/infrastructure/persistence/sql-transaction';
import {
  lockInIdOrder,
  openIncidentsOfKeys,
  SqlImEventBatchStore,
} from '../../../../src/infrastructure/incident-management/sql-im-event-batch';
import { CommitImEvents, decideImEventBatch, dedupRefsOf } from '../../../../src/application/incident-management/commit-im-events';
import type { ImEvent } from '../../../../src/application/incident-management/im-event';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import type { RunningApplication } from '../../../../src/main/application';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Rolls a transaction's work back once it answered what the test needs. */
class Answered<T> extends Error {
  constructor(readonly value: T) {
    super('answered');
  }
}

const trigger = (dedupKey: string): ImEvent => ({ action: 'trigger', dedupKey, summary: 'again', severity: 'error', details: {} });

/** Two open incidents whose ids run against both the batch's key order and the table's physical order: B is written first, with the higher id. */
async function twoOpenIncidents(app: RunningApplication, organizationId: number) {
  const [ids] = await app.database.sql.query<{ a: number; b: number }>(
    sql`SELECT nextval('im_incidents_id_seq')::int AS a, nextval('im_incidents_id_seq')::int AS b`,
  );
  const { a, b } = ids!;
  for (const [id, key] of [
    [b, 'key-b'],
    [a, 'key-a'],
  ] as const) {
    await app.database.sql.query(
      sql`INSERT INTO im_incidents (id, public_id, organization_id, title, severity, source, status, dedup_key, last_occurrence_at, created_at, updated_at)
          VALUES (${id}, ${randomUUID()}, ${organizationId}, ${key}, 'error', 'db', 'triggered', ${key}, now(), now(), now())`,
    );
  }
  return { a, b };
}

/** Holds incident `id` locked in a transaction of its own until `release` is called. */
async function holdLocked(app: RunningApplication, id: number) {
  const transactions = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const done = transactions.run(async (tx) => {
    await sqlOf(tx).query(sql`SELECT id FROM im_incidents WHERE id = ${id} FOR UPDATE`);
    locked();
    await released;
  });
  await isLocked;
  return { release, done };
}

/** Resolves once some statement waits for a row lock. */
async function someoneWaits(app: RunningApplication): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [row] = await app.database.sql.query<{ waiting: number }>(
      sql`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%im_incidents%'`,
    );
    if (row!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no statement waited for the held incident');
}

/** Whether incident `id` can be locked right now (no other transaction holds it). */
async function isFree(app: RunningApplication, id: number): Promise<boolean> {
  try {
    await app.database.sql.query(sql`SELECT id FROM im_incidents WHERE id = ${id} FOR UPDATE NOWAIT`);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return false;
    throw error;
  }
}

/**
 * What an event batch costs PostgreSQL grows with the batch, not with the table: its open incidents
 * are read key by key through the index of open dedup keys, so an organization with thousands of
 * open incidents (a bench's 5,000; a storm's) reads three rows for a batch of three keys, also
 * while the table's statistics still describe it as small (as they do in the minutes after it grew).
 * And every batch takes the incidents it changes in id order, so two batches of the same keys wait
 * for each other instead of deadlocking.
 */
describe('event batches read their open incidents by key, and lock them in id order', function () {
  this.timeout(60_000);

  {
    it('reads at most one row a key through the open-key index, however many incidents are open', async () => {
      const app = await testServer();
      const { organizationId } = await aCallerSet();
      const transactions = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
      const answered = await transactions
        .run(async (tx) => {
          const runner = sqlOf(tx);
          // Statistics taken before the organization's incidents arrive (rolled back with the rest): the
          // planner believes the open incidents few, as it does in the minutes after a table grew.
          await runner.query(sql`ANALYZE im_incidents`);
          await runner.query(
            sql`INSERT INTO im_incidents (public_id, organization_id, title, severity, source, status, dedup_key, last_occurrence_at, created_at, updated_at)
                SELECT gen_random_uuid(), ${organizationId}::int, 'open ' || n, 'error', 'db', 'triggered', 'key-' || n, now(), now(), now()
                  FROM generate_series(1, 2000) AS n`,
          );
          const keys = ['key-7', 'key-1999', 'no-such-key'];
          const read = openIncidentsOfKeys(
            keys.map(() => organizationId),
            keys,
          );
          const rows = await runner.query<{ dedup_key: string }>(read);
          // The plan the store runs: a prepared statement's generic plan (the store prepares it), for any keys.
          const name = `open_read_${process.pid}_${Date.now()}`;
          await runner.query(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
          await runner.query(raw(`PREPARE ${name}(int[], text[]) AS ${read.text}`));
          const [explained] = await runner.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
            // EXECUTE takes no bound values: the test's own keys, as literals.
            raw(
              `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}(ARRAY[${organizationId}, ${organizationId}, ${organizationId}], ARRAY['${keys.join("', '")}'])`,
            ),
          );
          await runner.query(raw(`DEALLOCATE ${name}`));
          throw new Answered({ rows, plan: explained!['QUERY PLAN'][0].Plan });
        })
        .catch((error: unknown) => {
          if (error instanceof Answered) return error.value as { rows: { dedup_key: string }[]; plan: PlanNode };
          throw error;
        });

      expect(answered.rows.map((row) => row.dedup_key).sort()).to.deep.equal(['key-1999', 'key-7']);
      const reads = nodesOf(answered.plan).filter((node) => node['Relation Name'] === 'im_incidents');
      expect(reads, JSON.stringify(answered.plan)).to.have.length.greaterThan(0);
      for (const node of reads) {
        expect(node['Index Name'], JSON.stringify(node)).to.equal('im_incidents_open_dedup_key');
        expect(node['Actual Rows'] * node['Actual Loops'], JSON.stringify(node)).to.be.at.most(3);
      }
    });
  }

  it("a locked attempt takes a batch's incidents in id order, not in its keys' order, and by place, without an index to choose", async () => {
    const app = await testServer();
    const { organizationId } = await aCallerSet();
    const { a, b } = await twoOpenIncidents(app, organizationId);
    const held = await holdLocked(app, a);
    const transactions = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    // Read in the batch's key order (B, then A), locked in id order.
    const reading = transactions.run(async (tx) => {
      const read = await sqlOf(tx).query<{ row_place: string }>(openIncidentsOfKeys([organizationId, organizationId], ['key-b', 'key-a']));
      return sqlOf(tx).query<{ id: number }>(lockInIdOrder(read.map((row) => row.row_place)));
    });
    await someoneWaits(app);
    // Waiting for A (the lower id), it has not taken B yet: another batch wanting A then B cannot be waited for in a cycle.
    const bFree = await isFree(app, b);
    held.release();
    await held.done;
    const rows = await reading;
    expect(bFree).to.equal(true);
    expect(rows.map((row) => Number(row.id))).to.deep.equal([a, b]);
    const [explained] = await app.database.sql.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      raw(`EXPLAIN (FORMAT JSON) ${lockInIdOrder(['(0,1)']).text.replace('$1', '\'{"(0,1)"}\'')}`),
    );
    const scans = nodesOf(explained!['QUERY PLAN'][0].Plan).filter((node) => node['Relation Name'] === 'im_incidents');
    expect(scans.map((node) => node['Node Type'])).to.deep.equal(['Tid Scan']);
  });

  it('a locked attempt whose incident changed between its read and its lock reads it again, and decides on the version it locked', async () => {
    const app = await testServer();
    const { organizationId } = await aCallerSet();
    await setIncidentManagement(organizationId, true);
    const { a } = await twoOpenIncidents(app, organizationId);
    const store = new SqlImEventBatchStore(app.database.sql, app.container.get<TransactionRunner>(TRANSACTION_RUNNER));
    const transactions = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    let reads = 0;
    const batch = [{ scope: { organizationId, customerId: null }, events: [trigger('key-a')] }];
    const [result] = await transactions.run((tx) => {
      const inner = sqlOf(tx);
      const raced = new SqlTransaction({
        joinsUnitOfWork: true,
        query: async (statement, options) => {
          const rows = await inner.query(statement, options);
          // Another writer changes the incident (and commits) after the first read, before the lock.
          if (/row_place/.test(statement.text) && ++reads === 1) {
            await app.database.sql.query(
              sql`UPDATE im_incidents SET occurrence_count = occurrence_count + 10, version = version + 1 WHERE id = ${a}`,
            );
          }
          return rows as never;
        },
      });
      return store.commitIn(raced, dedupRefsOf(batch), (loaded) =>
        decideImEventBatch(batch, loaded, { uuid: () => randomUUID() }, testClock.now()),
      );
    });
    expect(result!.map((r) => r.outcome)).to.deep.equal(['occurrence']);
    expect(reads).to.equal(2);
    const [row] = await app.database.sql.query<{ occurrence_count: number; version: number }>(
      sql`SELECT occurrence_count, version FROM im_incidents WHERE id = ${a}`,
    );
    // 1, then the other writer's 10 (and its version), then this batch's occurrence: nothing lost, nothing written over.
    expect(row).to.deep.equal({ occurrence_count: 12, version: 2 });
  });

  it('the unlocked write takes the incidents it changes in id order, not in the order the batch changed them', async () => {
    const app = await testServer();
    const { organizationId } = await aCallerSet();
    await setIncidentManagement(organizationId, true);
    const { a, b } = await twoOpenIncidents(app, organizationId);
    const held = await holdLocked(app, a);
    const seen = { lockedAttempts: 0 };
    const runner = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const store = new SqlImEventBatchStore(app.database.sql, {
      run: (work) => {
        seen.lockedAttempts++;
        return runner.run(work);
      },
    });
    const committing = new CommitImEvents(store, { uuid: () => randomUUID() }, testClock, { maxSize: 10, maxWaitMs: 1 }).executeAll(
      { organizationId, customerId: null },
      [trigger('key-b'), trigger('key-a')],
    );
    await someoneWaits(app);
    const bFree = await isFree(app, b);
    held.release();
    await held.done;
    const results = await committing;
    expect(bFree).to.equal(true);
    expect(results.map((r) => r.outcome)).to.deep.equal(['occurrence', 'occurrence']);
    // Written by the first, unlocked attempt: holding A only locked it, its version unchanged.
    expect(seen.lockedAttempts).to.equal(0);
    const counts = await app.database.sql.query<{ id: number; occurrence_count: number }>(
      sql`SELECT id, occurrence_count FROM im_incidents WHERE id IN (${a}, ${b}) ORDER BY id`,
    );
    expect(counts.map((row) => [Number(row.id), row.occurrence_count])).to.deep.equal([
      [a, 2],
      [b, 2],
    ]);
  });
});
