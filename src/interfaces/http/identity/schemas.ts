import { z } from 'zod';
import 'zod-openapi';
import { ROLES } from '../../../domain/identity/role';

export const Email = z.email().max(254);
export const Password = z.string().min(8).max(256);
export const Timestamp = z.iso.datetime();

export const UserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    organizationId: z.number().int(),
    customerId: z.number().int().nullable(),
    isActive: z.boolean(),
    isGlobalAdmin: z.boolean(),
    isGlobalSupporter: z.boolean(),
    twoFactorEnabled: z.boolean(),
    organizationStatus: z.string().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'User' });

export const SessionSchema = z
  .object({
    session: z.object({
      userId: z.string(),
      expiresAt: Timestamp.nullable(),
      token: z.string().meta({ description: 'Empty for token callers' }),
    }),
    user: UserSchema,
  })
  .meta({ id: 'Session' });

export const SignedInSchema = z.object({ token: z.string(), user: UserSchema }).meta({ id: 'SignedIn' });

export const OrganizationSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    name: z.string(),
    status: z.enum(['active', 'suspended', 'cancelled', 'deleted']),
    vatId: z.string().nullable(),
    countryCode: z.string().nullable(),
    billingEmail: z.string().nullable(),
    requireMfaAdmins: z.boolean(),
    requireMfaEditors: z.boolean(),
    requireMfaReadonly: z.boolean(),
    incidentManagementEnabled: z.boolean(),
    autoQuotaUpgrade: z.boolean(),
    cancelledAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Organization' });

export const ApiTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    organizationId: z.number().int(),
    customerId: z.number().int().nullable(),
    createdByUserId: z.string(),
    tokenPrefix: z.string(),
    expiresAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'ApiToken' });

export const SuccessSchema = z.object({ success: z.literal(true) }).meta({ id: 'Success' });
