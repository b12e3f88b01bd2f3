import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testDatabase } from '../test-server';

export interface PostgresLogin {
  /** The loopback TCP port of the test run's PostgreSQL. */
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly database: string;
  drop(): Promise<void>;
}

/**
 * TEST SUPPORT ONLY: a role with a password and a database it owns (holding a table `greeting`) on the
 * test run's PostgreSQL, for the PostgreSQL monitor's checks; dropped after.
 */
export async function aPostgresLogin(): Promise<PostgresLogin> {
  const { url } = await testDatabase();
  const suffix = randomBytes(4).toString('hex');
  const username = `check_${suffix}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const database = `checked_${suffix}`;
  const run = async (connection: string | pg.ClientConfig, ...statements: string[]) => {
    const client = new pg.Client(connection);
    await client.connect();
    try {
      for (const sql of statements) await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(url, `CREATE ROLE ${username} LOGIN PASSWORD '${password}'`, `CREATE DATABASE ${database} OWNER ${username}`);
  const port = Number(new URL(url).port || 5432);
  await run(
    { host: '127.0.0.1', port, user: username, password, database },
    `CREATE TABLE greeting (text text)`,
    `INSERT INTO greeting VALUES ('hello postgres')`,
  );
  return {
    port,
    username,
    password,
    database,
    drop: () => run(url, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, `DROP ROLE IF EXISTS ${username}`),
  };
}
