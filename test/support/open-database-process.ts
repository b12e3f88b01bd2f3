import { openDatabase } from '../../src/infrastructure/persistence/database';

/**
 * TEST SUPPORT ONLY, a process of its own (`node --import tsx test/support/open-database-process.ts
 * <url>`): opens the database as the service does (the migrations in their child process), then
 * prints, as one JSON line, the modules this process has loaded that match the migrator or the
 * migrations, how many modules it loaded in all, and the migration names the database answered.
 */
async function main(url: string): Promise<void> {
  const database = await openDatabase(url, { prepareConnection: async () => undefined, poolMax: 2, sqlPoolMax: 2 });
  try {
    // Code only: MikroORM reads each of its installed packages' package.json at start (its version check).
    const loaded = Object.keys(require.cache).filter((file) => !file.endsWith('.json'));
    const report = {
      migratorModules: loaded.filter((file) =>
        /[\\/](@mikro-orm[\\/]migrations|umzug)[\\/]|[\\/]persistence[\\/]migration(s[\\/]|-child)/.test(file),
      ),
      ormLoaded: loaded.some((file) => /[\\/]@mikro-orm[\\/]postgresql[\\/]/.test(file)),
      modules: loaded.length,
      migrationNames: database.migrationNames,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await database.close();
  }
}

main(process.argv[2]!).catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exitCode = 1;
});
