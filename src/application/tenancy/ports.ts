import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Customer } from '../../domain/tenancy/customer';
import type { CustomField } from '../../domain/tenancy/custom-field';
import type { CustomerDomain } from '../../domain/tenancy/customer-domain';
import type { CustomerIp } from '../../domain/tenancy/customer-ip';
import type { PackageConfig } from '../../domain/tenancy/package-config';
import type { DomainExpiry, IpDnsbl } from '../../domain/tenancy/watch-results';
import type { DomainNotice, IpNotice, WatchEvent } from '../../domain/tenancy/watch-events';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

export type { CustomerTerms, CustomerTermsLookup } from './customer-terms';
export { CUSTOMER_TERMS_LOOKUP } from './customer-terms';

/**
 * `ref` is what a path carries: a public id (uuid) or a legacy integer id. Anything else, and any
 * record outside the scope (another organization, or another customer for a customer-scoped
 * caller), answers null.
 */
export type RecordRef = string;

export interface Page {
  readonly page: number;
  readonly perPage: number;
}

/** A paged list already serialized as JSON: `{"items": [...], "total", "page", "perPage"}`. */
export type SerializedPage = string;

/** An empty page, serialized. */
export const emptyPage = (page: Page): SerializedPage => `{"items":[],"total":0,"page":${page.page},"perPage":${page.perPage}}`;

export interface PackageConfigRepository {
  list(scope: TenantScope): Promise<PackageConfig[]>;
  /** `list` as the caller's transaction sees it (the built-in package it just added included). */
  listIn(scope: TenantScope, tx: Transaction): Promise<PackageConfig[]>;
  findByRef(scope: TenantScope, ref: RecordRef): Promise<PackageConfig | null>;
  /** `findByRef`, the same read on the caller's transaction (a read inside its work). */
  findByRefIn(scope: TenantScope, ref: RecordRef, tx: Transaction): Promise<PackageConfig | null>;
  /** Allocates the id; a taken key or display name throws packageKeyTaken; a default unflags the others. */
  add(config: PackageConfig, tx: Transaction): Promise<PackageConfig>;
  /** Adds the built-in package unless the organization already has one (safe against concurrent callers). */
  addBuiltInIfNone(config: PackageConfig, tx: Transaction): Promise<void>;
  /** Optimistic (conflict); packageKeyTaken as in add; customers above the top tier move down to it. */
  save(config: PackageConfig, tx: Transaction): Promise<void>;
  remove(config: PackageConfig, tx: Transaction): Promise<void>;
}
export const PACKAGE_CONFIG_REPOSITORY = token<PackageConfigRepository>('PackageConfigRepository');

export interface CustomerRepository {
  add(customer: Customer, tx: Transaction): Promise<Customer>;
  /** Inserts in one batch; ids allocated. */
  addMany(customers: Customer[], tx: Transaction): Promise<Customer[]>;
  findByRef(scope: TenantScope, ref: RecordRef): Promise<Customer | null>;
  /** `findByRef` on the caller's transaction (a read inside its work). */
  findByRefIn(scope: TenantScope, ref: RecordRef, tx: Transaction): Promise<Customer | null>;
  /** By name, then id. A customer-scoped caller gets only its own customer. */
  list(scope: TenantScope): Promise<Customer[]>;
  /** Optimistic: a stale version throws conflict. */
  save(customer: Customer, tx: Transaction): Promise<void>;
  /** Deletes the customer; its domains, IPs, SMS usage and customer-bound users and tokens go with it. */
  remove(customer: Customer, tx: Transaction): Promise<{ domains: number; ips: number }>;
  countByPackage(scope: TenantScope, packageId: number): Promise<number>;
  /** `countByPackage`, the same read on the caller's transaction (a read inside its work). */
  countByPackageIn(scope: TenantScope, packageId: number, tx: Transaction): Promise<number>;
  /** Drops a deleted custom field's values from every customer of the organization. */
  dropCustomFieldValues(scope: TenantScope, fieldKey: string, tx: Transaction): Promise<void>;
}
export const CUSTOMER_REPOSITORY = token<CustomerRepository>('CustomerRepository');

export interface CustomFieldRepository {
  /** By displayOrder, then id. */
  list(scope: TenantScope): Promise<CustomField[]>;
  findByRef(scope: TenantScope, ref: RecordRef): Promise<CustomField | null>;
  /** The same reads on the caller's transaction (a read inside its work). */
  listIn(scope: TenantScope, tx: Transaction): Promise<CustomField[]>;
  findByRefIn(scope: TenantScope, ref: RecordRef, tx: Transaction): Promise<CustomField | null>;
  /** A taken fieldKey throws customFieldKeyTaken. */
  add(field: CustomField, tx: Transaction): Promise<CustomField>;
  /** Optimistic: a stale version throws `conflict`. `tx` on the writes: the caller's transaction, which the write joins. */
  save(field: CustomField, tx: Transaction): Promise<void>;
  remove(field: CustomField, tx: Transaction): Promise<void>;
}
export const CUSTOM_FIELD_REPOSITORY = token<CustomFieldRepository>('CustomFieldRepository');

export interface WatchListFilter {
  readonly customerId?: RecordRef;
  /** Substring of the name or address, or of the label, case-insensitive. */
  readonly search?: string;
}

export interface CustomerDomainRepository {
  /** The same domain twice for one customer throws customerDomainExists. */
  add(domain: CustomerDomain, tx: Transaction): Promise<CustomerDomain>;
  findByRef(scope: TenantScope, ref: RecordRef): Promise<CustomerDomain | null>;
  /** `findByRef`, the same read on the caller's transaction (a read inside its work). */
  findByRefIn(scope: TenantScope, ref: RecordRef, tx: Transaction): Promise<CustomerDomain | null>;
  /**
   * A page ordered by domain name, then id, already serialized as the API's paged list:
   * `{items: [CustomerDomain record], total, page, perPage}` (hot path: no objects built).
   */
  listPage(scope: TenantScope, filter: WatchListFilter, page: Page): Promise<SerializedPage>;
  /** `resetExpiry` drops the check results (the name changed). */
  save(domain: CustomerDomain, options: { resetExpiry?: boolean }, tx: Transaction): Promise<void>;
  remove(domain: CustomerDomain, tx: Transaction): Promise<void>;
  expiryOf(domain: CustomerDomain): Promise<DomainExpiry | null>;
}
export const CUSTOMER_DOMAIN_REPOSITORY = token<CustomerDomainRepository>('CustomerDomainRepository');

export interface CustomerIpRepository {
  /** The same address twice for one customer throws customerIpExists. */
  add(ip: CustomerIp, tx: Transaction): Promise<CustomerIp>;
  findByRef(scope: TenantScope, ref: RecordRef): Promise<CustomerIp | null>;
  /** `findByRef`, the same read on the caller's transaction (a read inside its work). */
  findByRefIn(scope: TenantScope, ref: RecordRef, tx: Transaction): Promise<CustomerIp | null>;
  /** A page ordered by id, serialized as the API's paged list of CustomerIp records (see CustomerDomainRepository). */
  listPage(scope: TenantScope, filter: WatchListFilter, page: Page): Promise<SerializedPage>;
  save(ip: CustomerIp, options: { resetDnsbl?: boolean }, tx: Transaction): Promise<void>;
  remove(ip: CustomerIp, tx: Transaction): Promise<void>;
  dnsblOf(ip: CustomerIp): Promise<IpDnsbl | null>;
}
export const CUSTOMER_IP_REPOSITORY = token<CustomerIpRepository>('CustomerIpRepository');

/**
 * What a watch sweep decided beside the result: the notice to keep and its events, written to the
 * notification outbox with the result. `checkedAt` is the lastCheckedAt the sweep read: the result
 * is recorded only if it is still the stored one, so two sweeps never announce one change twice.
 */
export interface WatchAnnouncement<N> {
  readonly customerId: number;
  readonly checkedAt: Date | null;
  readonly notice: N;
  readonly events: readonly WatchEvent[];
}

/**
 * Where the check engine stores what it found, beside the records (no version bump, no updatedAt),
 * atomically with the announcement when there is one. The lastNotified* timestamps are written on
 * insert only: afterwards the delivery ledger owns them. Answers false when nothing was recorded
 * (the record is gone or out of scope, or another sweep recorded it first).
 */
export interface WatchResultStore {
  recordDomainExpiry(
    scope: TenantScope,
    domainId: number,
    expiry: DomainExpiry,
    announcement: WatchAnnouncement<DomainNotice> | undefined,
    tx: Transaction,
  ): Promise<boolean>;
  recordIpDnsbl(
    scope: TenantScope,
    ipId: number,
    dnsbl: IpDnsbl,
    announcement: WatchAnnouncement<IpNotice> | undefined,
    tx: Transaction,
  ): Promise<boolean>;
}
export const WATCH_RESULT_STORE = token<WatchResultStore>('WatchResultStore');

/** SMS sent per customer and calendar month (see smsMonthOf). */
export interface SmsUsageLedger {
  usage(scope: TenantScope, customerIds: readonly number[], month: string): Promise<Map<number, number>>;
  record(scope: TenantScope, customerId: number, month: string, count: number, tx: Transaction): Promise<void>;
}
export const SMS_USAGE_LEDGER = token<SmsUsageLedger>('SmsUsageLedger');

/** Forgets resolved callers, after a change that removes users or tokens (a deleted customer's). */
export interface CallerCacheInvalidator {
  invalidateAll(): void;
}
export const CALLER_CACHE_INVALIDATOR = token<CallerCacheInvalidator>('CallerCacheInvalidator');
