import { randomBytes } from 'node:crypto';
import { testDatabase } from './test-server';
import { createServerDatabase, type ServerDatabase } from './server-database';

export type FreshDatabase = ServerDatabase;

/**
 * TEST SUPPORT ONLY: an empty database of its own on the test run's PostgreSQL, for a test that
 * runs the whole engine or the job system (they would otherwise take other tests' monitors and
 * jobs as their own). The service migrates it when it opens it.
 */
export async function aFreshDatabase(label: string): Promise<FreshDatabase> {
  const { url: shared } = await testDatabase();
  const name = `${label}_${Date.now()}_${randomBytes(3).toString('hex')}`.replace(/[^a-z0-9_]/g, '_');
  return createServerDatabase(shared, name);
}
