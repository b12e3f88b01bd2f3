import { expect } from 'chai';
import { aCallerSet } from '../../../support/callers';
import { testServer } from '../../../support/test-server';
import { raw, sql } from '../../../../src/infrastructure/persistence/sql';
import { sqlOf } from '../../../../src/infrastructure/persistence/sql-transaction';
import { openIncidentsOfKeys } from '../../../../src/infrastructure/incident-management/sql-im-event-batch';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';

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

/**
 * What an event batch costs PostgreSQL grows with the batch, not with the table: its open incidents
 * are read key by key through the index of open dedup keys, so an organization with thousands of
 * open incidents (a bench's 5,000; a storm's) reads three rows for a batch of three keys, also
 * while the table's statistics still describe it as small (as they do in the minutes after it grew).
 */
describe('event batches read their open incidents by key', function () {
  this.timeout(60_000);

  it('reads one row through the open-key index for each key of the batch, however many incidents are open', async () => {
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
          true,
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
});
