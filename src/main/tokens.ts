import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { token } from '../application/shared/token';
import type { CallerCache } from '../infrastructure/identity/caller-cache';
import type { Database, SqlRunner } from '../infrastructure/persistence/database';
import type { AppConfig } from './config';

/** Composition-root tokens for infrastructure singletons (ports carry their own tokens beside them). */
export const CONFIG = token<AppConfig>('AppConfig');
export const LOGGER = token<Logger>('Logger');
export const ORM = token<MikroORM>('MikroORM');
/** The database as a whole (its deadlines and stall watch, for the pools opened beside the kit's). */
export const DATABASE = token<Database>('Database');
export const SQL = token<SqlRunner>('SqlRunner');
export const CALLER_CACHE = token<CallerCache>('CallerCache');
/**
 * Stand-alone statements on MikroORM's pool (rows typed as a transaction's), for the adapters' reads
 * and the writes that stand alone: never joins a transaction (a write that must takes the caller's `tx`).
 */
export const POOL_SQL = token<SqlRunner>('PoolSql');
