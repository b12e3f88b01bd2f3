import type { CustomDomain, CustomDomainKind } from '../../domain/custom-domains/custom-domain';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

/**
 * Custom-domain entries of organizations. Expired pending entries (7 days) are treated as absent by
 * every read. Only verified and active entries hold a hostname: a database constraint keeps one per
 * hostname, and a write that would break it answers domainAlreadyClaimed.
 */
export interface CustomDomainRepository {
  /**
   * Stores a new pending entry, dropping expired pending entries of the hostname first (both in the
   * caller's `tx`, so neither stands without the other); customDomainExists when the organization has one.
   */
  add(domain: CustomDomain, now: Date, tx: Transaction): Promise<CustomDomain>;
  /** By public id (uuid) in the scope; null when missing, expired or out of scope. */
  findByRef(scope: TenantScope, ref: string, now: Date): Promise<CustomDomain | null>;
  /** The scope's entries, hostname order. */
  list(scope: TenantScope, now: Date): Promise<CustomDomain[]>;
  /** Whether an organization other than this one holds the hostname (verified or active). */
  claimedElsewhere(hostname: string, organizationId: number): Promise<boolean>;
  /** Saves a state change; domainAlreadyClaimed when another organization holds the hostname, conflict on a stale version. */
  save(domain: CustomDomain, tx: Transaction): Promise<void>;
  remove(domain: CustomDomain, tx: Transaction): Promise<void>;
  /**
   * Deletes pending entries 7 days old (every organization's); answers how many. It stands alone on
   * the pool: one statement, run by the purge job, with no other write to join.
   */
  purgeExpired(now: Date): Promise<number>;
}
export const CUSTOM_DOMAIN_REPOSITORY = token<CustomDomainRepository>('CustomDomainRepository');

/** What a request under an active custom domain is served as. */
export interface ActiveHost {
  readonly hostname: string;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly kind: CustomDomainKind;
  /** The page a `statusPage` host serves: its public id, and its row id (what the public page is found by). */
  readonly statusPage: { readonly publicId: string; readonly rowId: number } | null;
}

/** Host routing's question: which tenant, if any, answers under this hostname (active entries only). */
export interface ActiveHostDirectory {
  find(hostname: string): Promise<ActiveHost | null>;
}
export const ACTIVE_HOST_DIRECTORY = token<ActiveHostDirectory>('ActiveHostDirectory');

/** TXT lookups through the service's resolvers (DNS_SERVERS). */
export interface TxtRecords {
  /** One value per record (chunks joined); [] when the name or its TXT records do not exist; `error` when the resolvers fail. */
  lookup(name: string): Promise<{ values: string[] } | { error: string }>;
}
export const TXT_RECORDS = token<TxtRecords>('TxtRecords');

/** A status page a `statusPage` domain may serve: its public id (uuid) and owning customer (null: the organization's). */
export interface StatusPageRef {
  readonly id: string;
  readonly customerId: number | null;
}

/** The status pages context, as custom domains need it: a page by id within the caller's scope. */
export interface StatusPageDirectory {
  /** null when missing; may throw statusPageNotFound itself with data.reason (malformed id, another scope: the spec's 400). */
  find(scope: TenantScope, ref: string): Promise<StatusPageRef | null>;
}
export const STATUS_PAGE_DIRECTORY = token<StatusPageDirectory>('StatusPageDirectory');

/** What an organization shows of itself on its white-label hosts (the identity context's organization). */
export interface OrganizationLook {
  readonly name: string;
  readonly accentColor: string | null;
  readonly logo: string | null;
}

/** The look of an organization, read before anyone signs in (the console's sign-in page on a white-label host). */
export interface OrganizationLooks {
  find(organizationId: number): Promise<OrganizationLook | null>;
}
export const ORGANIZATION_LOOKS = token<OrganizationLooks>('OrganizationLooks');
