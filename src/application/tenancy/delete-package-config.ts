import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { CustomerRepository, PackageConfigRepository } from './ports';

/** A package still bought by customers cannot go: 409 packageConfigInUse with data.customerCount. */
export class DeletePackageConfig {
  constructor(
    private readonly packages: PackageConfigRepository,
    private readonly customers: CustomerRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<void> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'packageConfig.manage');
    await this.tx.run(async (tx) => {
      const config = await this.packages.findByRefIn(actor.scope, input.id, tx);
      if (!config) throw new AppError('packageConfigNotFound');
      const customerCount = await this.customers.countByPackageIn(actor.scope, config.id, tx);
      if (customerCount > 0) throw new AppError('packageConfigInUse', { customerCount }, 'Customers still use this package');
      await this.packages.remove(config, tx);
    });
  }
}
