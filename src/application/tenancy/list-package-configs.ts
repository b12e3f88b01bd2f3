import type { PackageConfig } from '../../domain/tenancy/package-config';
import type { Actor } from '../shared/actor';
import type { PackageConfigRepository } from './ports';

/** Every package of the organization; customer-scoped callers may read them too (as a price list). */
export class ListPackageConfigs {
  constructor(private readonly packages: PackageConfigRepository) {}

  execute(actor: Actor): Promise<PackageConfig[]> {
    return this.packages.list(actor.scope);
  }
}
