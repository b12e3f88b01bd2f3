import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Customer } from '../../domain/tenancy/customer';
import type { PackageConfig } from '../../domain/tenancy/package-config';
import { smsMonthOf } from '../../domain/tenancy/sms-month';
import type { Clock } from '../shared/clock';
import type { PackageConfigRepository, SmsUsageLedger } from './ports';

/** A customer as callers see it: with its package and this month's SMS count. */
export interface CustomerView {
  readonly customer: Customer;
  readonly package: PackageConfig | null;
  readonly smsUsageCurrentMonth: number;
}

/** Joins customers with their packages and SMS usage in two reads, however many customers. */
export class CustomerViews {
  constructor(
    private readonly packages: PackageConfigRepository,
    private readonly sms: SmsUsageLedger,
    private readonly clock: Clock,
  ) {}

  async of(scope: TenantScope, customers: readonly Customer[]): Promise<CustomerView[]> {
    if (customers.length === 0) return [];
    const [packages, usage] = await Promise.all([
      this.packages.list(scope),
      this.sms.usage(
        scope,
        customers.map((c) => c.id),
        smsMonthOf(this.clock.now()),
      ),
    ]);
    return customers.map((customer) => ({
      customer,
      package: packages.find((p) => p.id === customer.packageId) ?? null,
      smsUsageCurrentMonth: usage.get(customer.id) ?? 0,
    }));
  }

  async one(scope: TenantScope, customer: Customer): Promise<CustomerView> {
    return (await this.of(scope, [customer]))[0]!;
  }
}
