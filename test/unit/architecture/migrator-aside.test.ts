import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { typeScriptFiles } from '../../support/source-files';

/**
 * The service's process never loads MikroORM's migrator (issue 64): the migrations run in a child
 * process (`persistence/migrate-aside.ts`, entry `persistence/migration-child.ts`), so only the
 * migrations themselves, their index and the child's entry import `@mikro-orm/migrations` or the
 * index (not even for a type); and the child's entry is never imported, since importing it loads both.
 */
const SRC = path.resolve(__dirname, '../../../src');
const PERSISTENCE = path.join(SRC, 'infrastructure/persistence');
const MIGRATIONS = path.join(PERSISTENCE, 'migrations');
const CHILD = path.join(PERSISTENCE, 'migration-child');

/** Each module a file names: imports and re-exports (types too), require() and import(). */
function loads(text: string): string[] {
  const statics = [...text.matchAll(/^\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  const dynamic = [...text.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
  return [...statics, ...dynamic];
}

/** What a specifier names: a package as written, a relative path resolved (without extension or /index). */
function target(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  return path
    .resolve(path.dirname(file), specifier)
    .replace(/\.(ts|js)$/, '')
    .replace(/[\\/]index$/, '');
}

const rel = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

function migratorLoaders(files: { file: string; text: string }[]): string[] {
  return files.flatMap(({ file, text }) => {
    const inMigrations = path.dirname(file) === MIGRATIONS;
    const isChild = file === `${CHILD}.ts`;
    return loads(text).flatMap((specifier) => {
      const to = target(file, specifier);
      const migrator = to === '@mikro-orm/migrations' || to.startsWith('@mikro-orm/migrations/');
      if ((migrator || to === MIGRATIONS) && !inMigrations && !isChild) return [`${rel(file)} loads ${specifier}`];
      if (to === CHILD) return [`${rel(file)} loads the migrations' child entry (${specifier})`];
      return [];
    });
  });
}

describe('the migrator stays out of the service process', () => {
  const files = typeScriptFiles(SRC).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));

  it('no module but the migrations, their index and the child entry loads @mikro-orm/migrations or the index', () => {
    expect(migratorLoaders(files)).to.deep.equal([]);
  });

  it('the rule sees each way of loading them (a module that did would be named)', () => {
    const at = (name: string, text: string) => ({ file: path.join(SRC, name), text });
    expect(
      migratorLoaders([
        at(
          'infrastructure/persistence/database.ts',
          "import { Migrator } from '@mikro-orm/migrations';\nimport { migrationsList } from './migrations';",
        ),
        at('infrastructure/identity/probe.ts', "const { migrationsList } = require('../persistence/migrations/index');"),
        at('main/start.ts', "export { run } from '../infrastructure/persistence/migration-child';"),
        at('main/types.ts', "import type { MikroORM } from '@mikro-orm/migrations';"),
        at('infrastructure/persistence/migrations/20270101000000-x.ts', "import { Migration } from '@mikro-orm/migrations';"),
        at('infrastructure/persistence/migration-child.ts', "import { migrationsList } from './migrations';"),
      ]),
    ).to.deep.equal([
      'infrastructure/persistence/database.ts loads @mikro-orm/migrations',
      'infrastructure/persistence/database.ts loads ./migrations',
      'infrastructure/identity/probe.ts loads ../persistence/migrations/index',
      "main/start.ts loads the migrations' child entry (../infrastructure/persistence/migration-child)",
      'main/types.ts loads @mikro-orm/migrations',
    ]);
  });
});
