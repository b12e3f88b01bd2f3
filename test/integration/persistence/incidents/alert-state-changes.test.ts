import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import { expect } from 'chai';
import pino from 'pino';
import pg from 'pg';
import { RecordCheckResult } from '../../../../src/application/incidents/record-check-result';
import { SteadyMemo } from '../../../../src/application/incidents/steady-memo';
import { PgAlertStateChanges } from '../../../../src/infrastructure/incidents/pg-alert-state-changes';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record, type MonitorRow } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';
import { testDatabase, testServer } from '../../../support/test-server';
import { waitFor } from '../../../support/wait-for';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MINUTE = 60_000;

/**
 * Notices come in commit order on the listening connection: once a notice sent after some work has
 * arrived, every notice of that work has too (none came if none was sent).
 */
async function noticesSoFar(changed: readonly number[]) {
  const { database } = await testServer();
  const marker = -(changed.length + 1);
  await database.sql.query(sql`SELECT pg_notify('alert_state', ${String(marker)})`);
  await waitFor(() => changed.includes(marker), { what: 'the marker notice' });
}

async function aMonitor() {
  const org = await anOrganization('alert-notices');
  const customerId = await aCustomerRow(org.user.organizationId);
  return aMonitorRow(org.user.organizationId, customerId, { locations: ['eu'], consecutiveChecks: 1 });
}

/** The engine's batch path, in a unit of work of its own. */
async function recordBatch(monitor: MonitorRow, result: ReturnType<typeof aResult>) {
  const app = await testServer();
  const batch = await app.container.get<TransactionRunner>(TRANSACTION_RUNNER).run((tx) =>
    app.container.get(RecordCheckResult).executeMany(
      [
        {
          monitorId: monitor.id,
          organizationId: monitor.organizationId,
          customerId: monitor.customerId,
          location: 'eu',
          intervalMs: monitor.checkIntervalSeconds * 1000,
          result,
        },
      ],
      tx,
    ),
  );
  return { steady: batch.steady, judged: batch.judged.length };
}

describe('alert-state change notices (LISTEN/NOTIFY on PostgreSQL)', () => {
  it("tells of every committed change of a monitor's alert state, and of none for steady results", async () => {
    const { database } = await testServer();
    const { url } = await testDatabase();
    const changed: number[] = [];
    const stop = await new PgAlertStateChanges(url, pino({ level: 'silent' })).listen({
      changed: (id) => changed.push(id),
      lost: () => undefined,
      resumed: () => undefined,
    });
    try {
      const monitor = await aMonitor();
      const t0 = new Date(testClock.now().getTime() - 30 * MINUTE);
      await record(monitor, 'eu', aResult('up', t0));
      await noticesSoFar(changed);
      expect(
        changed.filter((id) => id === monitor.id),
        'the state created by the first result',
      ).to.have.length(1);

      expect(await recordBatch(monitor, aResult('up', new Date(t0.getTime() + MINUTE)))).to.deep.equal({ steady: 1, judged: 0 });
      await noticesSoFar(changed);
      expect(
        changed.filter((id) => id === monitor.id),
        'none for the steady up',
      ).to.have.length(1);
      await record(monitor, 'eu', aResult('down', new Date(t0.getTime() + 2 * MINUTE)));
      await noticesSoFar(changed);
      expect(
        changed.filter((id) => id === monitor.id),
        'the down',
      ).to.have.length(2);

      await database.sql.query(sql`DELETE FROM monitor_alert_states WHERE monitor_id = ${monitor.id}`);
      await noticesSoFar(changed);
      expect(
        changed.filter((id) => id === monitor.id),
        'the deleted state',
      ).to.have.length(3);
    } finally {
      await stop();
    }
  });

  it('tells of a statement changing a thousand states in three notices of at most 400 ids, every monitor named', async () => {
    const { database } = await testServer();
    const { url } = await testDatabase();
    const monitor = await aMonitor();
    const ids = Array.from({ length: 1000 }, (_, i) => 2_000_000_000 + monitor.id * 1000 + i);
    const changed: number[] = [];
    const stop = await new PgAlertStateChanges(url, pino({ level: 'silent' })).listen({
      changed: (id) => changed.push(id),
      lost: () => undefined,
      resumed: () => undefined,
    });
    const raw = new pg.Client({ connectionString: url });
    const payloads: string[] = [];
    await raw.connect();
    raw.on('notification', (n) => {
      if (n.channel === 'alert_state' && n.payload !== undefined && !n.payload.startsWith('-')) payloads.push(n.payload);
    });
    await raw.query('LISTEN alert_state');
    const mine = (list: readonly number[]) => list.filter((id) => id >= ids[0]! && id <= ids.at(-1)!);
    try {
      const statements = [
        sql`INSERT INTO monitor_alert_states (monitor_id, organization_id, customer_id, check_interval_seconds, updated_at)
            SELECT id, ${monitor.organizationId}, ${monitor.customerId}, 60, now() FROM unnest(${ids}::bigint[]) AS id`,
        sql`UPDATE monitor_alert_states SET updated_at = now() WHERE monitor_id = ANY(${ids}::bigint[])`,
        sql`DELETE FROM monitor_alert_states WHERE monitor_id = ANY(${ids}::bigint[])`,
      ];
      for (const statement of statements) {
        payloads.length = 0;
        changed.length = 0;
        await database.sql.query(statement);
        await noticesSoFar(changed);
        await waitFor(() => mine(payloads.flatMap((p) => p.split(',').map(Number))).length === ids.length, {
          what: 'the raw notices',
        });
        expect(payloads.filter((p) => mine(p.split(',').map(Number)).length > 0)).to.have.length(3);
        expect(Math.max(...payloads.map((p) => p.split(',').length))).to.be.at.most(400);
        expect([...mine(changed)].sort((a, b) => a - b)).to.deep.equal(ids);
      }
    } finally {
      await raw.end();
      await stop();
      await database.sql.query(sql`DELETE FROM monitor_alert_states WHERE monitor_id = ANY(${ids}::bigint[])`);
    }
  });

  it('lets the engine skip reading the states of steady monitors until another process changes one', async () => {
    const app = await testServer();
    const { url } = await testDatabase();
    const memo = app.container.get(SteadyMemo);
    const unfollow = await memo.follow(new PgAlertStateChanges(url, pino({ level: 'silent' })));
    try {
      const monitor = await aMonitor();
      const t0 = new Date(testClock.now().getTime() - 30 * MINUTE);
      await recordBatch(monitor, aResult('up', t0));
      // The state the first result created is announced after its commit: what is read before that
      // notice arrives is forgotten when it does. Steady ups follow until one is remembered.
      let minute = 0;
      await waitFor(
        async () => {
          minute++;
          await recordBatch(monitor, aResult('up', new Date(t0.getTime() + minute * MINUTE)));
          return memo.knows(monitor.id, 'eu');
        },
        { what: 'a steady up remembered', everyMs: 50 },
      );
      minute++;

      // Another process (a worker of another location, an operator) changes the state.
      const [incident] = await app.database.sql.query<{ id: number }>(
        sql`INSERT INTO incidents (public_id, organization_id, customer_id, monitor_id, origin, status, title, started_at, created_at, updated_at)
         VALUES (gen_random_uuid(), ${monitor.organizationId}, ${monitor.customerId}, ${monitor.id}, 'automatic', 'open', 'Down', now(), now(), now()) RETURNING id`,
      );
      await app.database.sql.query(
        sql`UPDATE monitor_alert_states SET open_incident_id = ${incident!.id} WHERE monitor_id = ${monitor.id}`,
      );
      await waitFor(() => !memo.knows(monitor.id, 'eu'), { what: 'the monitor forgotten once told' });
      expect(
        await recordBatch(monitor, aResult('up', new Date(t0.getTime() + minute * MINUTE))),
        'judged with the open incident',
      ).to.deep.equal({ steady: 0, judged: 1 });
    } finally {
      await unfollow();
    }
  });

  it('forgets everything when its connection is cut and remembers again once listening again', async () => {
    const app = await testServer();
    const { url } = await testDatabase();
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
    const memo = new SteadyMemo();
    const unfollow = await memo.follow(new PgAlertStateChanges(url, logger));
    try {
      const remember = (id: number) => {
        const watch = memo.watch();
        watch.remember(id, 'eu');
        watch.close();
      };
      remember(1);
      expect(memo.knows(1, 'eu')).to.equal(true);
      const cut = await app.database.sql.query(
        sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN alert_state' AND pid <> pg_backend_pid()`,
      );
      expect(cut.length, 'the listening connection was found').to.be.at.least(1);
      await waitFor(() => !memo.knows(1, 'eu'), { what: 'everything forgotten when the connection is lost' });
      expect(warnings).to.include('alert-state change channel lost; listening again shortly');
      remember(2);
      expect(memo.knows(2, 'eu'), 'nothing remembered while not listening').to.equal(false);
      await waitFor(
        () => {
          remember(3);
          return memo.knows(3, 'eu');
        },
        { what: 'remembering again once listening' },
      );
    } finally {
      await unfollow();
    }
  });
});
