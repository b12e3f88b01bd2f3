import { EntitySchema } from '@mikro-orm/core';
import { Organization } from '../../domain/identity/organization';
import { User } from '../../domain/identity/user';
import { Session } from '../../domain/identity/session';
import { ApiToken } from '../../domain/identity/api-token';
import { AccountDeletionRequest } from '../../domain/identity/account-deletion';
import { columns } from '../persistence/columns';

const timestamps = {
  createdAt: { type: 'datetime', columnType: 'timestamptz' },
  updatedAt: { type: 'datetime', columnType: 'timestamptz' },
} as const;

export const OrganizationSchema = new EntitySchema<Organization>({
  class: Organization,
  tableName: 'organizations',
  properties: columns<Organization>({
    id: { type: 'integer', primary: true, autoincrement: true },
    publicId: { type: 'uuid', unique: true },
    name: { type: 'string' },
    status: { type: 'string' },
    vatId: { type: 'string', nullable: true },
    countryCode: { type: 'string', nullable: true },
    billingEmail: { type: 'string', nullable: true },
    requireMfaAdmins: { type: 'boolean' },
    requireMfaEditors: { type: 'boolean' },
    requireMfaReadonly: { type: 'boolean' },
    incidentManagementEnabled: { type: 'boolean' },
    autoQuotaUpgrade: { type: 'boolean' },
    cancelledAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    accentColor: { type: 'string', nullable: true },
    logo: { type: 'text', nullable: true, lazy: false },
    ...timestamps,
    version: { type: 'integer', version: true },
  }),
});

export const UserSchema = new EntitySchema<User>({
  class: User,
  tableName: 'users',
  properties: columns<User>({
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'integer' },
    customerId: { type: 'integer', nullable: true },
    name: { type: 'string' },
    email: { type: 'string', unique: true },
    passwordHash: { type: 'string' },
    role: { type: 'string' },
    isActive: { type: 'boolean' },
    isGlobalAdmin: { type: 'boolean' },
    isGlobalSupporter: { type: 'boolean' },
    twoFactorEnabled: { type: 'boolean' },
    totpSecret: { type: 'string', nullable: true },
    backupCodeHashes: { type: 'json' },
    mfaFailedAttempts: { type: 'integer' },
    mfaLockedUntil: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    ...timestamps,
    version: { type: 'integer', version: true },
  }),
});

export const SessionSchema = new EntitySchema<Session>({
  class: Session,
  tableName: 'sessions',
  properties: columns<Session>({
    id: { type: 'uuid', primary: true },
    userId: { type: 'uuid' },
    tokenHash: { type: 'string', unique: true },
    kind: { type: 'string' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz' },
    stepUpVerifiedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz' },
  }),
});

export const ApiTokenSchema = new EntitySchema<ApiToken>({
  class: ApiToken,
  tableName: 'api_tokens',
  properties: columns<ApiToken>({
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'integer' },
    customerId: { type: 'integer', nullable: true },
    createdByUserId: { type: 'uuid' },
    name: { type: 'string' },
    tokenHash: { type: 'string', unique: true },
    tokenPrefix: { type: 'string' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    lastUsedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    revokedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    ...timestamps,
  }),
});

export const AccountDeletionSchema = new EntitySchema<AccountDeletionRequest>({
  class: AccountDeletionRequest,
  tableName: 'account_deletion_requests',
  properties: columns<AccountDeletionRequest>({
    id: { type: 'uuid', primary: true },
    userId: { type: 'uuid' },
    organizationId: { type: 'integer' },
    status: { type: 'string' },
    requestedAt: { type: 'datetime', columnType: 'timestamptz' },
    effectiveAt: { type: 'datetime', columnType: 'timestamptz' },
    withdrawnAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    completedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    version: { type: 'integer', version: true },
  }),
});

export const identitySchemas = [OrganizationSchema, UserSchema, SessionSchema, ApiTokenSchema, AccountDeletionSchema];
