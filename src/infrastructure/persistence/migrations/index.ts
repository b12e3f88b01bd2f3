import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Identity } from './20261122000000-identity';
import { Migration20261122010000Tenancy } from './20261122010000-tenancy';

/** Every migration, in order. Listed explicitly so the same list runs from tsx, tsc output or a bundle. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000Identity', class: Migration20261122000000Identity },
  { name: 'Migration20261122010000Tenancy', class: Migration20261122010000Tenancy },
];
