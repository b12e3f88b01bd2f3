import { AddCustomerIp } from '../../../src/application/tenancy/add-customer-ip';
import { CreateCustomField } from '../../../src/application/tenancy/create-custom-field';
import { CreateCustomer } from '../../../src/application/tenancy/create-customer';
import { CreateCustomersInBulk } from '../../../src/application/tenancy/create-customers-in-bulk';
import { CustomerFactory } from '../../../src/application/tenancy/customer-factory';
import { CustomerViews } from '../../../src/application/tenancy/customer-views';
import { DeleteCustomer } from '../../../src/application/tenancy/delete-customer';
import { ListCustomerIps } from '../../../src/application/tenancy/list-customer-ips';
import { PackageCatalog } from '../../../src/application/tenancy/package-catalog';
import { UpdateCustomField } from '../../../src/application/tenancy/update-custom-field';
import { UpdateCustomer } from '../../../src/application/tenancy/update-customer';
import { UpdateCustomerIp } from '../../../src/application/tenancy/update-customer-ip';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { PackageConfig } from '../../../src/domain/tenancy/package-config';
import { CLOCK_START, ManualClock } from '../manual-clock';
import { immediateTransactions, sequentialIds } from '../fakes/shared-fakes';
import { FakeCustomFields, FakeCustomers, FakeIps, FakePackages, FakeSmsLedger } from '../fakes/tenancy-fakes';

/**
 * A package of organization 1 (public id and key `basic`, shown as "Basic"): every 5 minutes at
 * least, one free tier of 10 monitors, no SMS, not the default, created at the clock's default start,
 * unless `overrides` say otherwise.
 */
export function aPackageConfig(overrides: Partial<ConstructorParameters<typeof PackageConfig>[0]> = {}): PackageConfig {
  return new PackageConfig({
    publicId: 'basic',
    organizationId: 1,
    key: 'basic',
    displayName: 'Basic',
    description: null,
    minCheckIntervalMinutes: 5,
    quotaTiers: [{ monitorLimit: 10, priceMonthly: 0 }],
    smsMonthlyAllowance: 0,
    isDefault: false,
    now: CLOCK_START,
    ...overrides,
  });
}

export interface TenancyWorldOptions {
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
}

/**
 * The tenancy context on its fakes, wired as the composition root wires it: packages, customers,
 * custom fields, customer IPs and the SMS ledger, the customer views, package catalog and factory,
 * a caller cache whose invalidations are counted, and the use cases over them, on a clock at its
 * default start. Add a package of organization 1 with `addPackage`.
 */
export function aTenancyWorld(options: TenancyWorldOptions = {}) {
  const clock = new ManualClock();
  const tx = options.tx ?? immediateTransactions;
  const ids = sequentialIds();
  const packages = new FakePackages();
  const customers = new FakeCustomers();
  const fields = new FakeCustomFields();
  const ips = new FakeIps();
  const sms = new FakeSmsLedger();
  const views = new CustomerViews(packages, sms, clock);
  const catalog = new PackageCatalog(packages, ids, clock);
  const factory = new CustomerFactory(catalog, fields, ids, clock);
  let invalidated = 0;
  const callerCache = { invalidateAll: () => void invalidated++ };
  return {
    clock,
    tx,
    ids,
    packages,
    customers,
    fields,
    ips,
    sms,
    /** How often deleting a customer invalidated the cached callers. */
    invalidations: () => invalidated,
    create: new CreateCustomer(customers, factory, views, tx),
    bulk: new CreateCustomersInBulk(customers, factory, views, tx),
    update: new UpdateCustomer(customers, catalog, fields, views, tx, clock),
    remove: new DeleteCustomer(customers, callerCache, tx),
    createField: new CreateCustomField(fields, tx, ids, clock),
    updateField: new UpdateCustomField(fields, tx, clock),
    addIp: new AddCustomerIp(customers, ips, tx, ids, clock),
    listIps: new ListCustomerIps(ips),
    updateIp: new UpdateCustomerIp(ips, tx, clock),
    /** A package `key` of organization 1: every 5 minutes at least, one free tier of 10 monitors, 25 SMS a month. */
    addPackage: (key: string, displayName: string) =>
      packages.add(aPackageConfig({ publicId: key, key, displayName, smsMonthlyAllowance: 25, now: clock.now() })),
  };
}

export type TenancyWorld = ReturnType<typeof aTenancyWorld>;
