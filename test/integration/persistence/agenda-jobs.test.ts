import { expect } from 'chai';
import { Settings as commonSettings } from 'luxon';
import pino from 'pino';
import sinon from 'sinon';
import { startAgendaJobRunner } from '../../../src/infrastructure/scheduling/agenda-job-runner';
import { testDatabase, testServer } from '../../support/test-server';
import { waitFor } from '../../support/wait-for';
import { raw, sql } from '../../../src/infrastructure/persistence/sql';

describe('job system (Agenda on PostgreSQL)', () => {
  it('runs a queued job once, and schedules recurring ones in the shared store', async () => {
    await testServer();
    const { url } = await testDatabase();
    const runs: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const runner = await startAgendaJobRunner({
      databaseUrl: url,
      logger: pino({ level: 'silent' }),
      processEvery: 100,
      jobs: [
        {
          name: 'test:once',
          run: async () => {
            runs.push('once');
            done();
          },
        },
        {
          name: 'test:recurring',
          every: '1 hour',
          run: async () => {
            runs.push('recurring');
          },
        },
      ],
    });
    try {
      await runner.runNow('test:once');
      await finished;
      expect(runs.filter((r) => r === 'once')).to.have.length(1);
      const { database } = await testServer();
      const rows = await database.sql.query<{ name: string; repeat_interval: string }>(
        sql`SELECT name, repeat_interval FROM agenda_jobs WHERE name = 'test:recurring'`,
      );
      expect(rows).to.have.length(1);
      expect(rows[0]!.repeat_interval).to.equal('1 hour');
    } finally {
      await runner.stop();
    }
  });

  it("computes recurring jobs' next runs without asking ICU for the host's locale: both copies of luxon are given one", async () => {
    await testServer();
    const { url } = await testDatabase();
    const runner = await startAgendaJobRunner({
      databaseUrl: url,
      logger: pino({ level: 'silent' }),
      processEvery: 100,
      jobs: [{ name: 'test:locale', every: '1 hour', run: async () => undefined }],
    });
    try {
      // Agenda imports luxon's ES module, cron-parser requires its CommonJS build: two Settings objects.
      const { Settings: moduleSettings } = await import('luxon');
      expect([commonSettings.defaultLocale, moduleSettings.defaultLocale]).to.deep.equal(['en-US', 'en-US']);
      const formats = sinon.spy(Intl, 'DateTimeFormat');
      try {
        const { DateTime } = await import('luxon');
        DateTime.fromJSDate(new Date()).toJSDate();
        expect(formats.called, 'Intl.DateTimeFormat made for an instant').to.equal(false);
      } finally {
        formats.restore();
      }
    } finally {
      await runner.stop();
    }
  });

  it('survives the server cutting its notification connection (a database shutdown or restart): logged, not a crash', async () => {
    await testServer();
    const { url } = await testDatabase();
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
    const runner = await startAgendaJobRunner({ databaseUrl: url, logger, processEvery: 100, jobs: [] });
    try {
      const { database } = await testServer();
      const cut = await database.sql.query(
        sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
      expect(cut.length, 'the LISTEN connection was found').to.be.at.least(1);
      await waitFor(() => warnings.includes('job notification channel error'), { what: 'the channel error logged' });
    } finally {
      await runner.stop();
    }
  });

  it("keeps the lock of a job that runs longer than the lock lifetime, so a short lifetime (which frees a killed process's jobs soon) never cancels a long run", async () => {
    await testServer();
    const { url } = await testDatabase();
    const problems: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void problems.push(JSON.parse(line).msg) });
    let finished = 0;
    const runner = await startAgendaJobRunner({
      databaseUrl: url,
      logger,
      processEvery: 100,
      lockLifetimeMs: 400,
      jobs: [
        {
          name: 'test:long',
          run: async () => {
            await new Promise((resolve) => setTimeout(resolve, 1_500));
            finished++;
          },
        },
      ],
    });
    const failures: string[] = [];
    try {
      await runner.runNow('test:long');
      await waitFor(() => finished === 1, { timeoutMs: 10_000, what: 'the long job to finish' });
      const { database } = await testServer();
      // Its renewals end with it: no renewal lands after the end and locks the finished job again.
      await waitFor(
        async () =>
          (await database.sql.query<{ locked_at: Date | null }>(sql`SELECT locked_at FROM agenda_jobs WHERE name = 'test:long'`))[0]
            ?.locked_at === null,
        { what: 'the lock released' },
      );
      const [row] = await database.sql.query<{ fail_reason: string | null; fail_count: number | null }>(
        sql`SELECT fail_reason, fail_count FROM agenda_jobs WHERE name = 'test:long'`,
      );
      if (row?.fail_reason) failures.push(row.fail_reason);
      expect(failures, 'not cancelled as expired').to.deep.equal([]);
      expect(problems).to.deep.equal([]);
    } finally {
      await runner.stop();
    }
  });

  it('starts in several processes at once on an empty database: each waits for the one creating the job table (no "tuple concurrently updated")', async () => {
    await testServer();
    const { url } = await testDatabase();
    const { database } = await testServer();
    // A schema of its own stands in for an empty database: Agenda creates its table there.
    const schema = `agenda_race_${process.pid}_${Date.now()}`;
    await database.sql.query(sql`CREATE SCHEMA ${raw(schema)}`);
    const inSchema = new URL(url);
    inSchema.searchParams.set('options', `-c search_path=${schema}`);
    const start = () =>
      startAgendaJobRunner({ databaseUrl: inSchema.href, logger: pino({ level: 'silent' }), processEvery: 100, jobs: [] });
    try {
      for (let round = 0; round < 5; round++) {
        await database.sql.query(sql`DROP TABLE IF EXISTS ${raw(schema)}.agenda_jobs CASCADE`);
        const started = await Promise.allSettled([start(), start(), start(), start()]);
        await Promise.all(started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.stop()] : [])));
        const failed = started.flatMap((s) => (s.status === 'rejected' ? [(s.reason as Error).message] : []));
        expect(failed, `round ${round}`).to.deep.equal([]);
      }
      const [table] = await database.sql.query<{ count: number }>(
        sql`SELECT count(*)::int AS count FROM pg_tables WHERE schemaname = ${schema} AND tablename = 'agenda_jobs'`,
      );
      expect(table?.count).to.equal(1);
    } finally {
      await database.sql.query(sql`DROP SCHEMA ${raw(schema)} CASCADE`);
    }
  });

  it('stops by letting a running job finish before the job store closes', async () => {
    await testServer();
    const { url } = await testDatabase();
    const errors: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void errors.push(JSON.parse(line).msg) });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const steps: string[] = [];
    const runner = await startAgendaJobRunner({
      databaseUrl: url,
      logger,
      processEvery: 100,
      jobs: [
        {
          name: 'test:slow',
          run: async () => {
            steps.push('started');
            started();
            await new Promise((resolve) => setTimeout(resolve, 300));
            steps.push('finished');
          },
        },
      ],
    });
    await runner.runNow('test:slow');
    await running;
    await runner.stop();
    steps.push('stopped');
    expect(steps).to.deep.equal(['started', 'finished', 'stopped']);
    expect(errors).to.deep.equal([]);
  });
});

describe('job system (Agenda on MongoDB, when MONGODB_URL is set)', () => {
  it('fails to start with a clear error when MongoDB is unreachable, rather than ending the process', async () => {
    // Agenda connects its store in the background: without the runner's own connection first, an
    // unreachable server is an unhandled rejection (the process ends) and the start never settles.
    const started = startAgendaJobRunner({
      databaseUrl: 'postgres://unused@127.0.0.1:1/unused',
      mongodbUrl: 'mongodb://127.0.0.1:1/jobs?serverSelectionTimeoutMS=300',
      logger: pino({ level: 'silent' }),
      jobs: [{ name: 'test:never', run: async () => undefined }],
    });
    const error = await started.then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/^The job store at MONGODB_URL is unreachable: .*ECONNREFUSED/);
  });
});
