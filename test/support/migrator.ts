import type { MikroORM } from '@mikro-orm/postgresql';
import { openMigratingOrm } from '../../src/infrastructure/persistence/migration-child';

export interface TestMigrator {
  readonly migrator: ReturnType<MikroORM['getMigrator']>;
  close(): Promise<void>;
}

/**
 * TEST SUPPORT ONLY: MikroORM's migrator on a database, for a test that steps migrations back and
 * forth. The service opens its ORM without the migrator (its migrations run in a child process,
 * `migrateAside`); this opens one with it, through the child's own module, on a small pool of its own.
 */
export async function aMigrator(url: string): Promise<TestMigrator> {
  const orm = await openMigratingOrm(url);
  return { migrator: orm.getMigrator(), close: () => orm.close(true) };
}
