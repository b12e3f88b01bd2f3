import { Agenda } from 'agenda';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { Settings as luxonSettings } from 'luxon';
import pg from 'pg';
import type { Logger } from 'pino';
import type { MongoClient } from 'mongodb';
import { IDLE_CONNECTION_MS, pgPoolUse, type PoolUse } from '../persistence/pool-use';

/** How long stopping waits for running jobs (a supervisor's stop timeout is usually longer). */
export const DRAIN_MS = 10_000;
/**
 * How often Agenda scans its store for recurring turns that came due (one query per job name). No job
 * waits on this scan for its work: the jobs whose work is rows or time run on their notices and due
 * times in every process with jobs (job-wakeups.ts; the data export on its exports' due times too, so
 * an export a crashed process held is taken up when its lease lapses), and a job queued now (`runNow`)
 * runs on Agenda's own notice. What is left are the recurring turns (safety polls, hourly purges): a
 * scan locks those due before the next scan and runs each at its time, so they keep their times; a
 * crashed process's turns wait for its locks to lapse and the next scan (at most about 11 minutes).
 */
const PROCESS_EVERY_MS = 5 * 60_000;
/**
 * How long a job's lock outlives the last sign of life of the process that holds it. A scan locks
 * the turns due before the next scan ahead of their time, so a lock outlives the scan (a shorter one
 * lapses before its turn, which then slips to the next scan). A running job renews its lock every
 * quarter of this, so a run may last as long as it needs; a killed process's locks lapse after this.
 */
const LOCK_LIFETIME_MS = PROCESS_EVERY_MS + 60_000;

export interface RunnableJob {
  readonly name: string;
  readonly every?: string;
  run(): Promise<void>;
}

export interface JobRunner {
  /** Queues a job to run as soon as a worker is free. */
  runNow(name: string): Promise<void>;
  /**
   * Takes no new job, lets running ones finish (at most `DRAIN_MS`) and then closes the job store, so
   * a job is not cut off by the database closing under it. A job still running at the deadline, and
   * one locked ahead but not started, keep their locks until the lock lifetime passes, then run again.
   */
  stop(): Promise<void>;
  /** The use of its PostgreSQL pool (undefined when the jobs live in MongoDB). */
  poolUse(): PoolUse | undefined;
}

export interface JobRunnerOptions {
  /** PostgreSQL holds the jobs unless a MongoDB is configured. */
  databaseUrl: string;
  mongodbUrl?: string;
  logger: Logger;
  jobs: RunnableJob[];
  /** Wraps every run (a fresh ORM context per job run). */
  around?: <T>(work: () => Promise<T>) => Promise<T>;
  processEvery?: string | number;
  /** How long a lock outlives its holder's last renewal (default LOCK_LIFETIME_MS); running jobs renew theirs. */
  lockLifetimeMs?: number;
}

/** Connects (the driver's server selection timeout applies: 30 s unless the URL sets `serverSelectionTimeoutMS`). */
async function connectMongo(client: MongoClient): Promise<MongoClient> {
  try {
    return await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`The job store at MONGODB_URL is unreachable: ${(error as Error).message}`, { cause: error });
  }
}

/** The session advisory lock that makes processes starting together create Agenda's tables one at a time. */
const TAKE_SCHEMA_LOCK = 'SELECT pg_advisory_lock(4747002)';
const FREE_SCHEMA_LOCK = 'SELECT pg_advisory_unlock(4747002)';
const JOB_TABLE = 'agenda_jobs';

/**
 * Creates Agenda's tables, indexes and trigger under a session advisory lock. Agenda's backend does it
 * with `IF NOT EXISTS` and `CREATE OR REPLACE` statements on every start, which two processes starting
 * at once can still fail ("tuple concurrently updated" on the catalogue); and Agenda starts its
 * backend in its constructor, where a failure is an unhandled rejection that ends the process. So the
 * backend Agenda is given creates nothing.
 */
async function ensureJobTables(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(TAKE_SCHEMA_LOCK);
    await new PostgresBackend({ pool, tableName: JOB_TABLE, disableNotifications: true }).connect();
    await client.query(FREE_SCHEMA_LOCK);
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection that failed is closed, not pooled: closing it also lets go of the lock.
    client.release(broken);
  }
}

/**
 * Luxon, Agenda's date library (loaded twice: Agenda imports its ES module, cron-parser requires its
 * CommonJS build), asks ICU for the host's locale the first time it makes a date
 * (`new Intl.DateTimeFormat()`), which pages in about 4.5 MB of node's ICU data in every process that
 * runs jobs. Agenda and cron-parser only compute instants with it, which no locale changes, so both
 * copies are given one and never ask.
 */
async function settleLuxonLocale(): Promise<void> {
  const { Settings: moduleSettings } = await import('luxon');
  for (const settings of [luxonSettings, moduleSettings]) settings.defaultLocale ||= 'en-US';
}

/**
 * Agenda as the job system. On PostgreSQL it gets its own small pool, and the pool and its
 * notification channel error listeners (a server shutdown must not crash the process); the database
 * was already probed by the migrator, since Agenda does not report an unreachable store on its own.
 * On MongoDB the client is connected here, before Agenda: Agenda connects its store in the
 * background, where an unreachable server becomes an unhandled rejection that ends the process.
 */
export async function startAgendaJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const { logger } = options;
  await settleLuxonLocale();
  let pool: pg.Pool | undefined;
  let mongo: MongoClient | undefined;
  let backend;
  if (options.mongodbUrl) {
    // Loaded only when configured: the MongoDB driver and backend are about 10 MB of live heap.
    const [{ MongoClient }, { MongoBackend }] = await Promise.all([import('mongodb'), import('@agendajs/mongo-backend')]);
    mongo = await connectMongo(new MongoClient(options.mongodbUrl));
    backend = new MongoBackend({ mongo: mongo.db() });
  } else {
    pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4, idleTimeoutMillis: IDLE_CONNECTION_MS });
    pool.on('error', (error) => logger.warn({ err: error }, 'job store connection error'));
    await ensureJobTables(pool).catch(async (error: unknown) => {
      await pool?.end();
      throw error;
    });
    backend = new PostgresBackend({ pool, tableName: JOB_TABLE, ensureSchema: false });
    // Its LISTEN connection reports a server going away (a shutdown, a restart) as an 'error' event,
    // which crashes the process unless someone listens; it reconnects on its own.
    backend.notificationChannel?.on('error', (error: Error) => logger.warn({ err: error }, 'job notification channel error'));
  }
  const lockLifetimeMs = options.lockLifetimeMs ?? LOCK_LIFETIME_MS;
  const agenda = new Agenda({
    backend,
    name: 'monitoring',
    processEvery: options.processEvery ?? PROCESS_EVERY_MS,
    defaultLockLifetime: lockLifetimeMs,
    maxConcurrency: 20,
  });
  agenda.on('error', (error) => logger.error({ err: error }, 'job system error'));
  const around = options.around ?? ((work) => work());
  for (const job of options.jobs) {
    agenda.define(job.name, async (running) => {
      // The lock lives while this process does: renewed while the job runs, lapsing soon after a crash.
      let renewal: Promise<void> = Promise.resolve();
      const renewing = setInterval(() => {
        renewal = running.touch().catch((error: unknown) => logger.warn({ err: error, job: job.name }, 'job lock renewal failed'));
      }, lockLifetimeMs / 4);
      try {
        await around(() => job.run());
      } catch (error) {
        logger.error({ err: error, job: job.name }, 'job failed');
        throw error;
      } finally {
        clearInterval(renewing);
        // A renewal landing after Agenda records the end would lock the finished job again.
        await renewal;
      }
    });
  }
  await agenda.start();
  for (const job of options.jobs) if (job.every) await agenda.every(job.every, job.name);
  return {
    runNow: async (name) => void (await agenda.now(name)),
    poolUse: () => (pool ? pgPoolUse(pool) : undefined),
    stop: async () => {
      const drained = await agenda.drain({ timeout: DRAIN_MS });
      if (drained.timedOut) logger.warn({ running: drained.running }, 'jobs still running at shutdown keep their locks until these lapse');
      await pool?.end();
      await mongo?.close();
    },
  };
}
