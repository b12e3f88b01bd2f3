import type { TenantScope } from '../../domain/shared/tenant-scope';
import { PackageConfig } from '../../domain/tenancy/package-config';
import { choosePackage, choosesPackage, defaultPackage, type PackageChoice } from '../../domain/tenancy/package-choice';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { Transaction } from '../shared/transaction';
import type { PackageConfigRepository } from './ports';

/** Resolves the package a customer write names, or the organization's default for a create without one. */
export class PackageCatalog {
  constructor(
    private readonly packages: PackageConfigRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The organization's packages, with the built-in `standard` package added (in the caller's `tx`) if it has none yet. */
  async all(scope: TenantScope, tx: Transaction): Promise<PackageConfig[]> {
    const existing = await this.packages.listIn(scope, tx);
    if (existing.length > 0) return existing;
    await this.packages.addBuiltInIfNone(
      PackageConfig.builtIn({ publicId: this.ids.uuid(), organizationId: scope.organizationId, now: this.clock.now() }),
      tx,
    );
    return this.packages.listIn(scope, tx);
  }

  /** Rule 1: what the request names (invalidPackageType when unknown), else the default package. */
  static pick(packages: readonly PackageConfig[], choice: PackageChoice): PackageConfig {
    return choosesPackage(choice) ? choosePackage(packages, choice) : defaultPackage(packages)!;
  }
}
