import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { statementName, type SqlRow, type UnitOfWorkSql } from './database';
import { bind, type QueryOptions, type Sql } from './sql';

/** A node-postgres connection, as knex hands them out. */
interface PgConnection {
  query(config: { text: string; values: unknown[]; name?: string }): Promise<{ rows: unknown[] }>;
}

/** knex's client, as far as taking a connection goes (a transaction's client hands out the transaction's). */
interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

/**
 * SQL on the current unit of work, on MikroORM's own connections: inside a TransactionRunner.run
 * (or on the transaction it was made for, the handle's) it runs on the transaction's connection (knex's transaction client hands out that one), so rows
 * locked or written there are seen and commit together; outside one, on a connection of the ORM's
 * pool. Statements go to PostgreSQL as they are written (native `$n` placeholders), values bound by
 * the driver, as on the plain SQL pool.
 */
export class ContextSql implements UnitOfWorkSql {
  readonly joinsUnitOfWork = true as const;

  /** `transaction`: the entity manager of one transaction, whose connection every statement takes (the handle `TransactionRunner.run` hands over). */
  constructor(
    private readonly orm: MikroORM,
    private readonly transaction?: EntityManager,
  ) {}

  async query<T = SqlRow>(statement: Sql, options?: QueryOptions): Promise<T[]> {
    const { text, values, options: run } = bind(statement, options);
    // Outside any request context (a credential read before the request's context opens) the
    // global manager answers: it is never in a transaction, so the statement takes a pool connection.
    const em = this.transaction ?? (this.orm.em.getContext(false) as EntityManager);
    const transaction = em.getTransactionContext<{ client: KnexClient }>();
    const client = (transaction ?? (em.getConnection().getKnex() as unknown as { client: KnexClient })).client;
    const connection = await client.acquireConnection();
    try {
      const name = run.prepare ? statementName('c_', text) : undefined;
      return (await connection.query({ text, values: [...values], name })).rows as T[];
    } finally {
      await client.releaseConnection(connection);
    }
  }
}
