import { AppError } from '../../domain/shared/app-error';
import type { PackageConfig, PackageConfigFields } from '../../domain/tenancy/package-config';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { PackageConfigRepository } from './ports';

/**
 * Changes a package; its customers' limits follow at once. Customers on a tier the new tiers no
 * longer have move to the top tier.
 */
export class UpdatePackageConfig {
  constructor(
    private readonly packages: PackageConfigRepository,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; change: Partial<PackageConfigFields> }): Promise<PackageConfig> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'packageConfig.manage');
    return this.tx.run(async (tx) => {
      const config = await this.packages.findByRefIn(actor.scope, input.id, tx);
      if (!config) throw new AppError('packageConfigNotFound');
      config.change(input.change, this.clock.now());
      await this.packages.save(config, tx);
      return config;
    });
  }
}
