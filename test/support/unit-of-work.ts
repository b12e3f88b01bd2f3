import type { SqlRunner, UnitOfWorkSql } from '../../src/infrastructure/persistence/database';

/**
 * An adapter's SQL run outside any use case, each statement its own unit of work: for tests of an
 * adapter's statements (and of what a worker sees between transactions), where no transaction is
 * open to join. The service binds those adapters to `ContextSql`.
 */
export const standalone = (runner: SqlRunner): UnitOfWorkSql => ({
  joinsUnitOfWork: true,
  query: (statement, options) => runner.query(statement, options),
});
