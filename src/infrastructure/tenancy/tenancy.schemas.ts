import { EntitySchema } from '@mikro-orm/core';
import { Customer } from '../../domain/tenancy/customer';
import { CustomerDomain } from '../../domain/tenancy/customer-domain';
import { CustomerIp } from '../../domain/tenancy/customer-ip';
import { PackageConfig } from '../../domain/tenancy/package-config';
import { columns } from '../persistence/columns';

const timestamp = { type: 'datetime', columnType: 'timestamptz' } as const;
const nullableTimestamp = { ...timestamp, nullable: true } as const;
const text = { type: 'string', columnType: 'text' } as const;
const nullableText = { ...text, nullable: true } as const;
const nullableJson = { type: 'json', nullable: true } as const;
const record = {
  id: { type: 'integer', primary: true, autoincrement: true },
  publicId: { type: 'uuid', unique: true },
  organizationId: { type: 'integer' },
  createdAt: timestamp,
  updatedAt: timestamp,
  version: { type: 'integer', version: true },
} as const;

export const PackageConfigSchema = new EntitySchema<PackageConfig>({
  class: PackageConfig,
  tableName: 'package_configs',
  properties: columns<PackageConfig>({
    ...record,
    key: text,
    displayName: text,
    description: nullableText,
    minCheckIntervalMinutes: { type: 'integer' },
    quotaTiers: { type: 'json' },
    smsMonthlyAllowance: { type: 'integer' },
    isDefault: { type: 'boolean' },
  }),
});

export const CustomerSchema = new EntitySchema<Customer>({
  class: Customer,
  tableName: 'customers',
  properties: columns<Customer>({
    ...record,
    name: text,
    email: text,
    notificationPhoneNumber: nullableText,
    notificationEmail: nullableText,
    packageId: { type: 'integer' },
    quotaTierIndex: { type: 'integer' },
    status: text,
    allowedCheckCountryCodes: nullableJson,
    cancellationDate: nullableTimestamp,
    cancelledAt: nullableTimestamp,
    customFields: { type: 'json' },
    monthlyReportsEnabled: { type: 'boolean' },
    notificationChannels: nullableJson,
    notificationTargets: nullableJson,
    notificationRules: nullableJson,
    companyName: nullableText,
    street: nullableText,
    postalCode: nullableText,
    city: nullableText,
    country: nullableText,
    vatId: nullableText,
    paymentProviderCustomerId: nullableText,
    paymentProviderSubscriptionId: nullableText,
    customPricing: nullableJson,
    alertConsecutiveChecks: { type: 'integer' },
    alertRetryInterval: { type: 'integer' },
    alertLocationThreshold: { type: 'decimal', columnType: 'numeric(3,2)' },
    alertLocationThresholdCount: { type: 'integer' },
    alertReminderInterval: { type: 'integer' },
    dnsblReminderInterval: { type: 'integer', nullable: true },
    sslExpiryReminderInterval: { type: 'integer', nullable: true },
    allowSelfService: { type: 'boolean' },
    maxSelfServiceUrls: { type: 'integer' },
    canEditManaged: { type: 'boolean' },
  }),
});

const watched = {
  ...record,
  customerId: { type: 'integer' },
  label: text,
  status: text,
  notificationPhoneNumber: nullableText,
  notificationEmail: nullableText,
} as const;

export const CustomerDomainSchema = new EntitySchema<CustomerDomain>({
  class: CustomerDomain,
  tableName: 'customer_domains',
  properties: columns<CustomerDomain>({
    ...watched,
    domainName: text,
    expiryWarningDays: { type: 'integer' },
    expiryErrorDays: { type: 'integer' },
  }),
});

export const CustomerIpSchema = new EntitySchema<CustomerIp>({
  class: CustomerIp,
  tableName: 'customer_ips',
  properties: columns<CustomerIp>({ ...watched, ipAddress: text, ipFamily: text }),
});

export const tenancySchemas = [PackageConfigSchema, CustomerSchema, CustomerDomainSchema, CustomerIpSchema];
