import type { TenantScope } from '../../domain/shared/tenant-scope';
import { Customer, type CustomerProfile, type CustomerTermsFields } from '../../domain/tenancy/customer';
import { applyCustomFieldValues } from '../../domain/tenancy/custom-field-values';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { Transaction } from '../shared/transaction';
import { PackageCatalog } from './package-catalog';
import type { CustomFieldRepository } from './ports';

/** What a customer write may carry besides the package choice. */
export interface CustomerInput extends Partial<CustomerProfile & CustomerTermsFields> {
  packageId?: number;
  packageType?: string;
  customFields?: Record<string, unknown>;
}

export type NewCustomerInput = CustomerInput & Pick<CustomerProfile, 'name' | 'email'>;

/** Builds valid new customers of one organization, loading its packages and field definitions once. */
export class CustomerFactory {
  constructor(
    private readonly catalog: PackageCatalog,
    private readonly fields: CustomFieldRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** Throws invalidPackageType (customer rule 1) or invalidCustomFields for a row that does not fit. */
  async prepare(scope: TenantScope, tx: Transaction): Promise<(input: NewCustomerInput) => Customer> {
    const packages = await this.catalog.all(scope, tx);
    const definitions = await this.fields.listIn(scope, tx);
    const now = this.clock.now();
    return (input) => {
      const { packageId, packageType, customFields, ...details } = input;
      const chosen = PackageCatalog.pick(packages, { packageId, packageType });
      const values = applyCustomFieldValues(definitions, {}, customFields ?? {});
      return new Customer({
        ...details,
        publicId: this.ids.uuid(),
        organizationId: scope.organizationId,
        package: chosen,
        customFields: values,
        now,
      });
    };
  }
}
