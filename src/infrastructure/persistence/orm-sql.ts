import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { statementName, type SqlRow, type SqlRunner, type UnitOfWorkSql } from './database';
import { bind, type QueryOptions, type Sql } from './sql';
import { checkPoolStatement } from './pool-guard';

/** A node-postgres connection, as knex hands them out. */
interface PgConnection {
  query(config: { text: string; values: unknown[]; name?: string }): Promise<{ rows: unknown[] }>;
}

/** knex's client, as far as taking a connection goes (a transaction's client hands out the transaction's). */
interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

/** Runs one statement on a connection the client hands out, as written (native `$n` placeholders), values bound by the driver. */
async function runOn<T>(client: KnexClient, statement: Sql, options?: QueryOptions): Promise<T[]> {
  const { text, values, options: run } = bind(statement, options);
  const connection = await client.acquireConnection();
  try {
    const name = run.prepare ? statementName('c_', text) : undefined;
    return (await connection.query({ text, values: [...values], name })).rows as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * The statements of one transaction, on its connection (knex's transaction client hands out that
 * one): rows locked or written there are seen and commit together. The handle
 * `TransactionRunner.run` hands over (`sqlOf(tx)`); nothing finds it but the `tx` passed down.
 */
export class TransactionSql implements UnitOfWorkSql {
  readonly joinsUnitOfWork = true as const;

  private ended = false;

  /** `transaction`: the knex transaction (or savepoint) `TransactionRunner.run` opened. */
  constructor(private readonly transaction: Knex.Transaction) {}

  /** Whether the runner's work on this transaction has ended (its statements are refused from then on). */
  get over(): boolean {
    return this.ended;
  }

  /** The runner's work on the transaction ended: the handle refuses statements from now on. */
  end(): void {
    this.ended = true;
  }

  /**
   * Refused once the runner's work ended (not when knex completed the transaction: one whose
   * connection failed mid-work answers its next statement with the connection's own error, which
   * the host tells as the database's outage, 503).
   */
  query<T = SqlRow>(statement: Sql, options?: QueryOptions): Promise<T[]> {
    if (this.ended) throw new Error('The transaction this handle was made for is over');
    return runOn<T>(this.transaction.client as unknown as KnexClient, statement, options);
  }
}

/**
 * Stand-alone statements on MikroORM's pool: each takes a connection of the pool and runs on its own
 * (a write commits when it answers). It never joins a transaction, whatever is running around it: a
 * write that must commit with others takes the caller's `tx` instead. Rows come typed as a
 * transaction's do (timestamps as text), so an adapter reads the same rows in and out of one. Inside
 * a transaction's work the tests' pool guard refuses it (`pool-guard.ts`).
 */
export class OrmPoolSql implements SqlRunner {
  constructor(private readonly orm: MikroORM) {}

  async query<T = SqlRow>(statement: Sql, options?: QueryOptions): Promise<T[]> {
    checkPoolStatement(() => bind(statement, options).text); // the pool guard (pool-guard.ts): not inside a transaction's work
    const client = (this.orm.em.getConnection().getKnex() as unknown as { client: KnexClient }).client;
    return runOn<T>(client, statement, options);
  }
}
