import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testDatabase } from './test-server';

export interface FreshDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * TEST SUPPORT ONLY: an empty database of its own on the test run's PostgreSQL, for a test that
 * runs the whole engine or the job system (they would otherwise take other tests' monitors and
 * jobs as their own). The service migrates it when it opens it.
 */
export async function aFreshDatabase(label: string): Promise<FreshDatabase> {
  const { url: shared } = await testDatabase();
  const name = `${label}_${Date.now()}_${randomBytes(3).toString('hex')}`.replace(/[^a-z0-9_]/g, '_');
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
