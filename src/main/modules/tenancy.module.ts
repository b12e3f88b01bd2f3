import type { MikroORM } from '@mikro-orm/postgresql';
import { CLOCK, type Clock } from '../../application/shared/clock';
import { ID_GENERATOR, type IdGenerator } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import {
  CALLER_CACHE_INVALIDATOR,
  CUSTOMER_DOMAIN_REPOSITORY,
  CUSTOMER_IP_REPOSITORY,
  CUSTOMER_REPOSITORY,
  CUSTOMER_TERMS_LOOKUP,
  CUSTOM_FIELD_REPOSITORY,
  PACKAGE_CONFIG_REPOSITORY,
  SMS_USAGE_LEDGER,
  WATCH_RESULT_STORE,
  type CustomFieldRepository,
  type CustomerDomainRepository,
  type CustomerIpRepository,
  type CustomerRepository,
  type PackageConfigRepository,
} from '../../application/tenancy/ports';
import { CustomerViews } from '../../application/tenancy/customer-views';
import { PackageCatalog } from '../../application/tenancy/package-catalog';
import { CustomerFactory } from '../../application/tenancy/customer-factory';
import { ListCustomers } from '../../application/tenancy/list-customers';
import { GetCustomer } from '../../application/tenancy/get-customer';
import { CreateCustomer } from '../../application/tenancy/create-customer';
import { CreateCustomersInBulk } from '../../application/tenancy/create-customers-in-bulk';
import { UpdateCustomer } from '../../application/tenancy/update-customer';
import { DeleteCustomer } from '../../application/tenancy/delete-customer';
import { GetSmsUsage } from '../../application/tenancy/get-sms-usage';
import { ListPackageConfigs } from '../../application/tenancy/list-package-configs';
import { GetPackageConfig } from '../../application/tenancy/get-package-config';
import { CreatePackageConfig } from '../../application/tenancy/create-package-config';
import { UpdatePackageConfig } from '../../application/tenancy/update-package-config';
import { DeletePackageConfig } from '../../application/tenancy/delete-package-config';
import { ListCustomFields } from '../../application/tenancy/list-custom-fields';
import { CreateCustomField } from '../../application/tenancy/create-custom-field';
import { UpdateCustomField } from '../../application/tenancy/update-custom-field';
import { DeleteCustomField } from '../../application/tenancy/delete-custom-field';
import { AddCustomerDomain } from '../../application/tenancy/add-customer-domain';
import { ListCustomerDomains } from '../../application/tenancy/list-customer-domains';
import { GetCustomerDomain } from '../../application/tenancy/get-customer-domain';
import { UpdateCustomerDomain } from '../../application/tenancy/update-customer-domain';
import { DeleteCustomerDomain } from '../../application/tenancy/delete-customer-domain';
import { AddCustomerIp } from '../../application/tenancy/add-customer-ip';
import { ListCustomerIps } from '../../application/tenancy/list-customer-ips';
import { GetCustomerIp } from '../../application/tenancy/get-customer-ip';
import { UpdateCustomerIp } from '../../application/tenancy/update-customer-ip';
import { DeleteCustomerIp } from '../../application/tenancy/delete-customer-ip';
import { SqlPackageConfigRepository } from '../../infrastructure/tenancy/sql-package-config.repository';
import { SqlCustomerRepository } from '../../infrastructure/tenancy/sql-customer.repository';
import { SqlCustomFieldRepository } from '../../infrastructure/tenancy/sql-custom-field.repository';
import { SqlCustomerDomainRepository } from '../../infrastructure/tenancy/sql-customer-domain.repository';
import { SqlCustomerIpRepository } from '../../infrastructure/tenancy/sql-customer-ip.repository';
import { SqlWatchResultStore } from '../../infrastructure/tenancy/sql-watch-result.store';
import { SqlSmsUsageLedger } from '../../infrastructure/tenancy/sql-sms-usage.ledger';
import { SqlCustomerTermsLookup } from '../../infrastructure/tenancy/sql-customer-terms.lookup';
import { PreparedSql } from '../../infrastructure/persistence/prepared-sql';
import type { CallerCache } from '../../infrastructure/identity/caller-cache';
import { CALLER_CACHE, POOL_SQL, DATABASE, ORM } from '../tokens';
import { bindings, type Ctx } from './bindings';
import { customersRouter } from '../../interfaces/http/tenancy/customers.router';
import { packageConfigsRouter } from '../../interfaces/http/tenancy/package-configs.router';
import { customFieldsRouter } from '../../interfaces/http/tenancy/custom-fields.router';
import { customerDomainsRouter } from '../../interfaces/http/tenancy/customer-domains.router';
import { customerIpsRouter } from '../../interfaces/http/tenancy/customer-ips.router';
import type { ContextModule } from './context-module';

/** Tenancy: customers, package configs, custom fields, customer domains and IPs. */
export const tenancyModule = bindings(({ single }) => {
  const orm = (c: Ctx) => c.get<MikroORM>(ORM);

  single(PACKAGE_CONFIG_REPOSITORY, (c) => new SqlPackageConfigRepository(c.get(POOL_SQL)));
  single(CUSTOMER_REPOSITORY, (c) => new SqlCustomerRepository(c.get(POOL_SQL)));
  single(CUSTOM_FIELD_REPOSITORY, (c) => new SqlCustomFieldRepository(c.get(POOL_SQL)));
  single(PreparedSql, (c) => new PreparedSql(orm(c), (pool) => c.get(DATABASE).watchPool(pool)));
  single(CUSTOMER_DOMAIN_REPOSITORY, (c) => new SqlCustomerDomainRepository(c.get(POOL_SQL), c.get(PreparedSql)));
  single(CUSTOMER_IP_REPOSITORY, (c) => new SqlCustomerIpRepository(c.get(POOL_SQL), c.get(PreparedSql)));
  single(WATCH_RESULT_STORE, (c) => new SqlWatchResultStore(c.get(POOL_SQL)));
  single(SMS_USAGE_LEDGER, (c) => new SqlSmsUsageLedger(c.get(POOL_SQL)));
  single(CUSTOMER_TERMS_LOOKUP, (c) => new SqlCustomerTermsLookup(c.get(POOL_SQL), c.get(CLOCK)));
  single(CALLER_CACHE_INVALIDATOR, (c) => ({ invalidateAll: () => c.get<CallerCache>(CALLER_CACHE).clear() }));

  const customers = (c: Ctx) => c.get<CustomerRepository>(CUSTOMER_REPOSITORY);
  const packages = (c: Ctx) => c.get<PackageConfigRepository>(PACKAGE_CONFIG_REPOSITORY);
  const fields = (c: Ctx) => c.get<CustomFieldRepository>(CUSTOM_FIELD_REPOSITORY);
  const domains = (c: Ctx) => c.get<CustomerDomainRepository>(CUSTOMER_DOMAIN_REPOSITORY);
  const ips = (c: Ctx) => c.get<CustomerIpRepository>(CUSTOMER_IP_REPOSITORY);
  const tx = (c: Ctx) => c.get<TransactionRunner>(TRANSACTION_RUNNER);
  const ids = (c: Ctx) => c.get<IdGenerator>(ID_GENERATOR);
  const clock = (c: Ctx) => c.get<Clock>(CLOCK);

  single(CustomerViews, (c) => new CustomerViews(packages(c), c.get(SMS_USAGE_LEDGER), clock(c)));
  single(PackageCatalog, (c) => new PackageCatalog(packages(c), ids(c), clock(c)));
  single(CustomerFactory, (c) => new CustomerFactory(c.get(PackageCatalog), fields(c), ids(c), clock(c)));

  single(ListCustomers, (c) => new ListCustomers(customers(c), c.get(CustomerViews)));
  single(GetCustomer, (c) => new GetCustomer(customers(c), c.get(CustomerViews)));
  single(CreateCustomer, (c) => new CreateCustomer(customers(c), c.get(CustomerFactory), c.get(CustomerViews), tx(c)));
  single(CreateCustomersInBulk, (c) => new CreateCustomersInBulk(customers(c), c.get(CustomerFactory), c.get(CustomerViews), tx(c)));
  single(UpdateCustomer, (c) => new UpdateCustomer(customers(c), c.get(PackageCatalog), fields(c), c.get(CustomerViews), tx(c), clock(c)));
  single(DeleteCustomer, (c) => new DeleteCustomer(customers(c), c.get(CALLER_CACHE_INVALIDATOR), tx(c)));
  single(GetSmsUsage, (c) => new GetSmsUsage(customers(c), c.get(CustomerViews), clock(c)));

  single(ListPackageConfigs, (c) => new ListPackageConfigs(packages(c)));
  single(GetPackageConfig, (c) => new GetPackageConfig(packages(c)));
  single(CreatePackageConfig, (c) => new CreatePackageConfig(packages(c), tx(c), ids(c), clock(c)));
  single(UpdatePackageConfig, (c) => new UpdatePackageConfig(packages(c), tx(c), clock(c)));
  single(DeletePackageConfig, (c) => new DeletePackageConfig(packages(c), customers(c), tx(c)));

  single(ListCustomFields, (c) => new ListCustomFields(fields(c)));
  single(CreateCustomField, (c) => new CreateCustomField(fields(c), tx(c), ids(c), clock(c)));
  single(UpdateCustomField, (c) => new UpdateCustomField(fields(c), tx(c), clock(c)));
  single(DeleteCustomField, (c) => new DeleteCustomField(fields(c), customers(c), tx(c)));

  single(AddCustomerDomain, (c) => new AddCustomerDomain(customers(c), domains(c), tx(c), ids(c), clock(c)));
  single(ListCustomerDomains, (c) => new ListCustomerDomains(domains(c)));
  single(GetCustomerDomain, (c) => new GetCustomerDomain(domains(c)));
  single(UpdateCustomerDomain, (c) => new UpdateCustomerDomain(domains(c), tx(c), clock(c)));
  single(DeleteCustomerDomain, (c) => new DeleteCustomerDomain(domains(c), tx(c)));

  single(AddCustomerIp, (c) => new AddCustomerIp(customers(c), ips(c), tx(c), ids(c), clock(c)));
  single(ListCustomerIps, (c) => new ListCustomerIps(ips(c)));
  single(GetCustomerIp, (c) => new GetCustomerIp(ips(c)));
  single(UpdateCustomerIp, (c) => new UpdateCustomerIp(ips(c), tx(c), clock(c)));
  single(DeleteCustomerIp, (c) => new DeleteCustomerIp(ips(c), tx(c)));
});

export const tenancyContext: ContextModule = {
  name: 'tenancy',
  bindings: tenancyModule,
  routers: [customersRouter, packageConfigsRouter, customFieldsRouter, customerDomainsRouter, customerIpsRouter],
  // The prepared reads' own pool, closed after every worker and the server stopped.
  closers: [{ name: 'prepared reads', close: (get) => get(PreparedSql).close() }],
};
