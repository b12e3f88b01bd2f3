import { Organization, type OrganizationStatus } from '../../domain/identity/organization';
import { User } from '../../domain/identity/user';
import type { Role } from '../../domain/identity/role';
import type { SqlRow } from '../persistence/database';
import { dateOf, jsonOf, optionalDateOf } from '../persistence/row';
import { raw } from '../persistence/sql';

/**
 * The hand-written mappers of identity's people and tenants, shared by their repositories and the
 * credential resolvers. Each reads a row keyed by column name: the driver's row of a plain select,
 * or `to_jsonb(alias)` of a joined table (the resolvers read a credential, its user and its
 * organization in one statement), whose timestamps arrive as text and whose numbers as numbers.
 */

/** The organization columns the aggregate maps (not `vat_validation`, written by its own store). */
export const ORGANIZATION_COLUMNS = raw(`id, public_id, name, status, vat_id, country_code, billing_email, require_mfa_admins,
  require_mfa_editors, require_mfa_readonly, incident_management_enabled, auto_quota_upgrade, cancelled_at, accent_color, logo,
  created_at, updated_at, version`);

/** The user columns the aggregate maps (not `last_sign_in_at`, noted apart by the sessions). */
export const USER_COLUMNS = raw(`id, organization_id, customer_id, name, email, password_hash, role, is_active, is_global_admin,
  is_global_supporter, two_factor_enabled, totp_secret, backup_code_hashes, mfa_failed_attempts, mfa_locked_until, created_at,
  updated_at, version`);

type Stamp = Date | string;

/** A stored organization (no constructor: the row was valid when written). */
export function organizationOf(row: SqlRow): Organization {
  return Object.assign(Object.create(Organization.prototype) as Organization, {
    id: Number(row.id),
    publicId: row.public_id as string,
    name: row.name as string,
    status: row.status as OrganizationStatus,
    vatId: row.vat_id as string | null,
    countryCode: row.country_code as string | null,
    billingEmail: row.billing_email as string | null,
    requireMfaAdmins: row.require_mfa_admins as boolean,
    requireMfaEditors: row.require_mfa_editors as boolean,
    requireMfaReadonly: row.require_mfa_readonly as boolean,
    incidentManagementEnabled: row.incident_management_enabled as boolean,
    autoQuotaUpgrade: row.auto_quota_upgrade as boolean,
    cancelledAt: optionalDateOf(row.cancelled_at as Stamp | null),
    accentColor: row.accent_color as string | null,
    logo: row.logo as string | null,
    createdAt: dateOf(row.created_at as Stamp),
    updatedAt: dateOf(row.updated_at as Stamp),
    version: Number(row.version),
  });
}

/** A stored user (no constructor: the row was valid when written, and the address is kept as stored). */
export function userOf(row: SqlRow): User {
  return Object.assign(Object.create(User.prototype) as User, {
    id: row.id as string,
    organizationId: Number(row.organization_id),
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    name: row.name as string,
    email: row.email as string,
    passwordHash: row.password_hash as string,
    role: row.role as Role,
    isActive: row.is_active as boolean,
    isGlobalAdmin: row.is_global_admin as boolean,
    isGlobalSupporter: row.is_global_supporter as boolean,
    twoFactorEnabled: row.two_factor_enabled as boolean,
    totpSecret: row.totp_secret as string | null,
    backupCodeHashes: jsonOf<string[]>(row.backup_code_hashes),
    mfaFailedAttempts: Number(row.mfa_failed_attempts),
    mfaLockedUntil: optionalDateOf(row.mfa_locked_until as Stamp | null),
    createdAt: dateOf(row.created_at as Stamp),
    updatedAt: dateOf(row.updated_at as Stamp),
    version: Number(row.version),
  });
}
