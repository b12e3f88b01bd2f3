import { Customer } from '../../domain/tenancy/customer';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerRepository } from '../../application/tenancy/ports';
import { refFilter, scopeFilter } from '../persistence/tenant-scope';
import { TenancyRepository } from './tenancy-repository';
import { sql } from '../persistence/sql';

const byName = (a: Customer, b: Customer) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id;

export class MikroOrmCustomerRepository extends TenancyRepository implements CustomerRepository {
  async add(customer: Customer): Promise<Customer> {
    await this.persist(customer);
    return customer;
  }

  async addMany(customers: Customer[]): Promise<Customer[]> {
    for (const customer of customers) this.em.persist(customer);
    await this.flush();
    return customers;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<Customer | null> {
    const filter = refFilter(ref);
    // Both conditions: for a customer-scoped caller the scope also names an id.
    return filter ? this.em.findOne(Customer, { $and: [filter, scopeFilter(scope, 'id')] }) : null;
  }

  async list(scope: TenantScope): Promise<Customer[]> {
    return (await this.em.find(Customer, scopeFilter(scope, 'id'))).sort(byName);
  }

  save(customer: Customer): Promise<void> {
    return this.persist(customer);
  }

  async remove(customer: Customer): Promise<{ domains: number; ips: number }> {
    const [counts] = await this.sql.query<{ domains: number; ips: number }>(
      sql`SELECT (SELECT count(*)::int FROM customer_domains WHERE customer_id = ${customer.id}) AS domains,
              (SELECT count(*)::int FROM customer_ips WHERE customer_id = ${customer.id}) AS ips`,
    );
    this.em.remove(customer);
    await this.flush();
    return { domains: counts?.domains ?? 0, ips: counts?.ips ?? 0 };
  }

  countByPackage(scope: TenantScope, packageId: number): Promise<number> {
    return this.em.count(Customer, { ...scopeFilter(scope, 'id'), packageId });
  }

  async dropCustomFieldValues(scope: TenantScope, fieldKey: string): Promise<void> {
    await this.sql.query(
      sql`UPDATE customers SET custom_fields = custom_fields - CAST(${fieldKey} AS text) WHERE organization_id = ${scope.organizationId}`,
    );
  }
}
