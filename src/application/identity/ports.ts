import type { VatNumber, VatValidation } from '../../domain/identity/vat-id';
import type { Organization } from '../../domain/identity/organization';
import type { User } from '../../domain/identity/user';
import type { Session } from '../../domain/identity/session';
import type { ApiToken } from '../../domain/identity/api-token';
import type { AccountDeletionRequest } from '../../domain/identity/account-deletion';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { IdentityEvent, NoticeRecipient } from '../../domain/identity/events';
import type { DomainEventPublisher } from '../shared/domain-events';
import type { Transaction } from '../shared/transaction';
import { token } from '../shared/token';

export interface OrganizationRepository {
  /** Allocates the integer id. `tx` on the writes: the caller's transaction, which the write joins. */
  add(organization: Organization, tx: Transaction): Promise<Organization>;
  /** By public id or legacy integer id. Platform lookups only; tenants use their scope. */
  findByRef(ref: string | number): Promise<Organization | null>;
  findById(id: number): Promise<Organization | null>;
  list(page: { page: number; perPage: number }): Promise<{ items: Organization[]; total: number }>;
  /** Optimistic: a stale version throws `conflict`. */
  save(organization: Organization, tx: Transaction): Promise<void>;
}
export const ORGANIZATION_REPOSITORY = token<OrganizationRepository>('OrganizationRepository');

export interface UserRepository {
  /** `tx` on the writes: the caller's transaction, which the write joins (without it, the write stands alone). */
  add(user: User, tx: Transaction): Promise<void>;
  /** Sign-in and uniqueness checks: emails are unique across the platform. */
  findByEmail(email: string): Promise<User | null>;
  findById(scope: TenantScope, id: string): Promise<User | null>;
  /** The same reads on the caller's transaction (a read inside its work, not on the pool). */
  findByEmailIn(email: string, tx: Transaction): Promise<User | null>;
  findByIdIn(scope: TenantScope, id: string, tx: Transaction): Promise<User | null>;
  /** Unscoped, for completing a sign-in whose organization is not known yet. */
  findForSignIn(id: string): Promise<User | null>;
  list(scope: TenantScope): Promise<User[]>;
  /** Active organization-wide admins; locks them for the rest of the transaction (`tx`). */
  countActiveAdmins(organizationId: number, tx: Transaction): Promise<number>;
  /** Optimistic: a stale version throws `conflict`. */
  save(user: User, tx: Transaction): Promise<void>;
  remove(user: User, tx: Transaction): Promise<void>;
}
export const USER_REPOSITORY = token<UserRepository>('UserRepository');

export interface SessionRepository {
  /** `tx` on the writes: the caller's transaction, which the write joins (without it, the write stands alone). */
  add(session: Session, tx: Transaction): Promise<void>;
  findByTokenHash(tokenHash: string): Promise<Session | null>;
  findById(id: string): Promise<Session | null>;
  /** Optimistic: a stale version throws `conflict`. */
  save(session: Session, tx: Transaction): Promise<void>;
  remove(session: Session, tx: Transaction): Promise<void>;
  removeAllOfUser(userId: string, tx: Transaction): Promise<void>;
  /** Notes a completed sign-in (a full session opened) on the user, for the platform staff's views. */
  recordSignIn(userId: string, at: Date, tx: Transaction): Promise<void>;
}
export const SESSION_REPOSITORY = token<SessionRepository>('SessionRepository');

export interface ApiTokenRepository {
  /** `tx` on the writes: the caller's transaction, which the write joins (without it, the write stands alone). */
  add(token: ApiToken, tx: Transaction): Promise<void>;
  findById(scope: TenantScope, id: string): Promise<ApiToken | null>;
  /** Tokens visible in the scope; `customerTokens` selects customer-scoped ones, else organization-wide. */
  list(scope: TenantScope, customerTokens: boolean): Promise<ApiToken[]>;
  /** Optimistic: a stale version throws `conflict`. */
  save(token: ApiToken, tx: Transaction): Promise<void>;
}
export const API_TOKEN_REPOSITORY = token<ApiTokenRepository>('ApiTokenRepository');

export interface AccountDeletionRepository {
  findPendingForUser(userId: string): Promise<AccountDeletionRequest | null>;
  /** `findPendingForUser`, the same read on the caller's transaction (a read inside its work). */
  findPendingForUserIn(userId: string, tx: Transaction): Promise<AccountDeletionRequest | null>;
  findDue(now: Date, limit: number): Promise<AccountDeletionRequest[]>;
  /** `tx` on the writes: the caller's transaction, which the write joins (without it, the write stands alone). */
  add(request: AccountDeletionRequest, tx: Transaction): Promise<void>;
  /** Optimistic: a concurrent change throws `conflict`. */
  save(request: AccountDeletionRequest, tx: Transaction): Promise<void>;
}
export const ACCOUNT_DELETION_REPOSITORY = token<AccountDeletionRepository>('AccountDeletionRepository');

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}
export const PASSWORD_HASHER = token<PasswordHasher>('PasswordHasher');

/** High-entropy secrets and their fast, constant-time-comparable digests. */
export interface SecretTokens {
  generate(prefix: string): string;
  hash(token: string): string;
}
export const SECRET_TOKENS = token<SecretTokens>('SecretTokens');

export interface TotpService {
  generateSecret(): string;
  uri(secret: string, accountName: string): string;
  verify(secret: string, code: string, now: Date): boolean;
}
export const TOTP_SERVICE = token<TotpService>('TotpService');

/** Messages to an organization's administrators (account deletion notices and the like). */
export interface AdminNotifier {
  notifyAdministrators(organizationId: number, message: { subject: string; body: string }, tx: Transaction): Promise<void>;
}
export const ADMIN_NOTIFIER = token<AdminNotifier>('AdminNotifier');

/** The organization's active administrators (none of a customer), whom security notices are for. */
export interface AdministratorDirectory {
  /** Read on the caller's transaction (the notice is published in it). */
  activeAdministrators(organizationId: number, tx: Transaction): Promise<NoticeRecipient[]>;
}
export const ADMINISTRATOR_DIRECTORY = token<AdministratorDirectory>('AdministratorDirectory');

/** Publishes the identity context's events (the outbox, in the caller's unit of work). */
export type IdentityEvents = DomainEventPublisher<IdentityEvent>;
export const IDENTITY_EVENTS = token<IdentityEvents>('IdentityEvents');

/** The platform switches, edited by platform admins. */
export interface PlatformSettings {
  agentAuthEnabled: boolean;
  agentWritesEnabled: boolean;
  serviceAuthEnabled: boolean;
}
export interface PlatformSettingsRepository {
  get(): Promise<PlatformSettings>;
  update(change: Partial<PlatformSettings>): Promise<PlatformSettings>;
}
export const PLATFORM_SETTINGS_REPOSITORY = token<PlatformSettingsRepository>('PlatformSettingsRepository');

/** Whether a customer exists in scope (customers belong to the tenancy context). */
export interface CustomerDirectory {
  exists(scope: TenantScope, customerId: number): Promise<boolean>;
}
export const CUSTOMER_DIRECTORY = token<CustomerDirectory>('CustomerDirectory');

/** The EU's VAT registry (VIES): whether a number is valid, with the registered name and address. */
export interface VatRegistry {
  /** `unavailable` when the member state's service or VIES cannot answer now (worth a retry later). */
  check(
    number: VatNumber,
  ): Promise<
    | { ok: true; valid: boolean; name: string | null; address: string | null }
    | { ok: false; reason: 'unavailable' | 'invalidInput'; detail: string }
  >;
}
export const VAT_REGISTRY = token<VatRegistry>('VatRegistry');

/**
 * The organization's last VAT validation, stored only while its vatId and countryCode are still the
 * ones that were looked up (false when they changed during the lookup).
 */
export interface VatValidationStore {
  record(organizationId: number, lookedUp: { vatId: string; countryCode: string | null }, validation: VatValidation): Promise<boolean>;
}
export const VAT_VALIDATION_STORE = token<VatValidationStore>('VatValidationStore');
