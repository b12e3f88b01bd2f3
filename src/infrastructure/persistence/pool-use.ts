import type pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';

/** A connection pool's use at one instant (the metrics' view of a pool). */
export interface PoolUse {
  /** Connections open (idle or in use). */
  readonly total: number;
  readonly idle: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
}

export const pgPoolUse = (pool: pg.Pool): PoolUse => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });

/** The pool of knex's client under MikroORM (tarn), or undefined once the ORM is closed. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

export function ormPoolUse(orm: MikroORM): PoolUse | undefined {
  const pool = (orm.em.getConnection().getKnex().client as { pool?: TarnPool | null }).pool;
  if (!pool) return undefined;
  const idle = pool.numFree();
  return { total: pool.numUsed() + idle, idle, waiting: pool.numPendingAcquires() };
}

/**
 * How long a pooled connection may sit idle before its pool closes it (every pool of the service).
 * The drivers' defaults (10 s for pg's pools, 30 s for knex's) close the connections that the
 * background loops' rounds (every 5 to 30 s) use, so each round opened a new one: a new PostgreSQL
 * backend, its password exchange and its catalog caches, which cost an idle service more CPU than
 * its queries. Connections opened for a burst still close after this.
 */
export const IDLE_CONNECTION_MS = 5 * 60_000;

/**
 * How often MikroORM's pool (knex's, on tarn) looks for connections idle past IDLE_CONNECTION_MS.
 * tarn's default is every second for as long as the pool holds a connection, which with connections
 * kept for minutes is always: a wake-up of the process every second, each costing about as much CPU
 * as a small service's check (bench/README.md, the small end). An idle connection then closes
 * between 5 and 5.5 minutes after its last use.
 */
export const REAP_IDLE_CONNECTIONS_EVERY_MS = 30_000;
