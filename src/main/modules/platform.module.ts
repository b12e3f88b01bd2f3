import { randomUUID } from 'node:crypto';
import { CLOCK, type Clock } from '../../application/shared/clock';
import { ID_GENERATOR, type IdGenerator } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { RATE_LIMITER } from '../../application/shared/rate-limiter';
import type { Database } from '../../infrastructure/persistence/database';
import { MikroOrmTransactionRunner } from '../../infrastructure/persistence/mikro-orm-transaction-runner';
import { PostgresRateLimiter } from '../../infrastructure/rate-limit/postgres-rate-limiter';
import type { AppConfig } from '../config';
import { CONFIG, DATABASE, LOGGER, ORM, POOL_SQL, SQL } from '../tokens';
import { OrmPoolSql } from '../../infrastructure/persistence/orm-sql';
import type { Logger } from 'pino';
import { bindings } from './bindings';
import type { ContextModule } from './context-module';

/** Cross-cutting adapters: configuration, logging, the database and its shared SQL handles, clock, ids, transactions, rate limits. */
export const platformModule = (config: AppConfig, logger: Logger, database: Database, clock?: Clock) =>
  bindings(({ bind }) => {
    bind(CONFIG).toConstantValue(config);
    bind(LOGGER).toConstantValue(logger);
    bind(DATABASE).toConstantValue(database);
    bind(ORM).toConstantValue(database.orm);
    bind(SQL).toConstantValue(database.sql);
    // The pool the SQL adapters read (and write on their own) through; what joins a transaction takes its `tx`.
    bind(POOL_SQL)
      .toDynamicValue((ctx) => new OrmPoolSql(ctx.get(ORM)))
      .inSingletonScope();
    bind<Clock>(CLOCK).toConstantValue(clock ?? { now: () => new Date() });
    bind<IdGenerator>(ID_GENERATOR).toConstantValue({ uuid: () => randomUUID() });
    bind(TRANSACTION_RUNNER)
      .toDynamicValue((ctx) => new MikroOrmTransactionRunner(ctx.get(ORM)))
      .inSingletonScope();
    bind(RATE_LIMITER)
      .toDynamicValue((ctx) => new PostgresRateLimiter(ctx.get(SQL), () => ctx.get<Clock>(CLOCK).now()))
      .inSingletonScope();
  });

export const platformContext: ContextModule = {
  name: 'platform',
  bindings: ({ config, logger, database, clock }) => platformModule(config, logger, database, clock),
};
