import { AppError } from '../../domain/shared/app-error';
import { applyCustomFieldValues } from '../../domain/tenancy/custom-field-values';
import { choosePackage, choosesPackage } from '../../domain/tenancy/package-choice';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { assertMayChangeCustomer } from './customer-access';
import type { CustomerInput } from './customer-factory';
import type { CustomerView, CustomerViews } from './customer-views';
import type { PackageCatalog } from './package-catalog';
import type { CustomFieldRepository, CustomerRepository } from './ports';

/**
 * Changes a customer. A package change must name an existing package of the organization (rule 2:
 * an unknown packageType is refused, never stored); customFields merge key by key (null clears one).
 */
export class UpdateCustomer {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly catalog: PackageCatalog,
    private readonly fields: CustomFieldRepository,
    private readonly views: CustomerViews,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; change: CustomerInput }): Promise<CustomerView> {
    requireAction(actor, 'customer.update');
    assertMayChangeCustomer(actor, input.change);
    const { packageId, packageType, customFields, ...details } = input.change;
    const customer = await this.tx.run(async (tx) => {
      const found = await this.customers.findByRefIn(actor.scope, input.id, tx);
      if (!found) throw new AppError('customerNotFound');
      const now = this.clock.now();
      if (choosesPackage({ packageId, packageType })) {
        found.changePackage(choosePackage(await this.catalog.all(actor.scope, tx), { packageId, packageType }), now);
      }
      if (customFields !== undefined) {
        found.setCustomFields(applyCustomFieldValues(await this.fields.listIn(actor.scope, tx), found.customFields, customFields), now);
      }
      found.change(details, now);
      await this.customers.save(found, tx);
      return found;
    });
    return this.views.one(actor.scope, customer);
  }
}
